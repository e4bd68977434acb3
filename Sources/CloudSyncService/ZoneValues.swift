import CloudSyncCore

/// A zone to create.
public struct ZoneSpec: Sendable, Hashable {
    public var name: String
    /// All-or-nothing modify calls.
    public var atomic: Bool

    public init(name: String, atomic: Bool = true) {
        self.name = name
        self.atomic = atomic
    }
}

/// What a zone can do (CKRecordZone.Capabilities).
public struct ZoneCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Change tokens and fetch-changes.
    public static let fetchChanges = ZoneCapabilities(rawValue: 1)
    /// All-or-nothing modify calls.
    public static let atomic = ZoneCapabilities(rawValue: 2)

    /// Names as CloudKit Web Services writes them.
    public var names: [String] {
        var out: [String] = []
        if contains(.fetchChanges) { out.append("FETCH_CHANGES") }
        if contains(.atomic) { out.append("ATOMIC") }
        return out
    }
}

/// A zone as the cloud reports it.
public struct ZoneInfo: Sendable, Hashable {
    public var zoneID: ZoneID
    public var capabilities: ZoneCapabilities
    /// The zone's current change token (nil for zones without change tracking).
    public var syncToken: ServerChangeToken?
    /// Live records in the zone.
    public var recordCount: Int

    public init(zoneID: ZoneID, capabilities: ZoneCapabilities, syncToken: ServerChangeToken?, recordCount: Int) {
        self.zoneID = zoneID
        self.capabilities = capabilities
        self.syncToken = syncToken
        self.recordCount = recordCount
    }
}
