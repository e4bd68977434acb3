import CloudSyncCore

/// A record of the app's local model, as the local store keeps it: identity, type, fields and
/// the time of its last local change. Zones are named without an owner: the owner is the
/// account that syncs the store.
public struct LocalRecord: Sendable, Hashable {
    public var zoneName: String
    public var recordName: String
    public var recordType: String
    public var fields: [String: FieldValue]
    /// Milliseconds since the epoch of the last local change.
    public var modified: Int64

    public init(zoneName: String, recordName: String, recordType: String, fields: [String: FieldValue], modified: Int64) {
        self.zoneName = zoneName
        self.recordName = recordName
        self.recordType = recordType
        self.fields = fields
        self.modified = modified
    }
}

/// What a local transaction did to one record.
public enum ChangeKind: String, Sendable, Hashable {
    case insert
    case update
    case delete
}

/// One record's change inside a history transaction.
public struct HistoryChange: Sendable, Hashable {
    public var zoneName: String
    public var recordName: String
    public var recordType: String
    public var kind: ChangeKind
    /// The fields set or removed (empty for a delete).
    public var changedKeys: [String]
}

/// A transaction of the persistent history (NSPersistentHistoryTransaction's role).
public struct HistoryTransaction: Sendable, Hashable {
    public var id: Int64
    public var time: Int64
    public var device: String
    /// Who made the change: `local` for the user on this device, `sync` for changes pulled
    /// from the cloud.
    public var author: String
    public var changes: [HistoryChange]
}

/// The default zone of the local store: the zone NSPersistentCloudKitContainer uses.
public enum LocalStoreDefaults {
    public static let zoneName = "com.apple.coredata.cloudkit.zone"
    /// History authors.
    public static let localAuthor = "local"
    public static let syncAuthor = "sync"
}
