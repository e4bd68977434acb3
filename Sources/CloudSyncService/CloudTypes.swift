import CloudSyncCore

/// A user of the cloud.
public struct Account: Sendable, Hashable {
    /// The login name given on the command line (`--account alice`).
    public var name: String
    /// `_` followed by 32 hex digits, stable for the life of the cloud.
    public var userRecordName: String

    public init(name: String, userRecordName: String) {
        self.name = name
        self.userRecordName = userRecordName
    }
}

/// Which database a request addresses, and who is asking from which device.
public struct DatabaseRequest: Sendable, Hashable {
    public var container: String
    public var scope: DatabaseScope
    /// The caller's userRecordName.
    public var userRecordName: String
    /// The caller's device name, recorded in the system fields of what it saves.
    public var deviceID: String
    /// The environment whose data and schema the call works on (default development).
    public var environment: CloudEnvironment
    /// In the shared database: the userRecordName of the owner whose shared zone the call
    /// addresses (`--owner`). Record calls may name the owner in their zone IDs instead; calls
    /// on the shared database as a whole (its zone list, changes, subscriptions) take none.
    public var sharedOwner: String?

    public init(container: String, scope: DatabaseScope, userRecordName: String, deviceID: String,
                environment: CloudEnvironment = .development) {
        self.container = container
        self.scope = scope
        self.userRecordName = userRecordName
        self.deviceID = deviceID
        self.environment = environment
        self.sharedOwner = nil
    }

    /// A request naming the owner of the shared zones it addresses (see `sharedOwner`).
    public init(container: String, scope: DatabaseScope, userRecordName: String, deviceID: String,
                environment: CloudEnvironment, sharedOwner: String?) {
        self.init(container: container, scope: scope, userRecordName: userRecordName, deviceID: deviceID,
                  environment: environment)
        self.sharedOwner = sharedOwner
    }

    /// This request addressing the shared zones of `owner` (a real userRecordName; the
    /// current-user placeholder or an empty name leaves the request as it is).
    public func owned(by owner: String) -> DatabaseRequest {
        guard scope == .shared, !owner.isEmpty, owner != ZoneID.currentUserOwner else { return self }
        var copy = self
        copy.sharedOwner = owner
        return copy
    }

    /// The container key the storage files this environment's data under (see
    /// `CloudEnvironment.storageContainer`).
    public var storageContainer: String { environment.storageContainer(container) }

    /// The owner of the zones of this database: the caller for the private database, the
    /// default owner for the public one, the sharing owner (`sharedOwner`) in the shared one.
    public var zoneOwner: String {
        scope == .public ? ZoneID.currentUserOwner : (sharedOwner ?? userRecordName)
    }

    /// The ID of a zone of this database.
    public func zoneID(_ name: String) -> ZoneID { ZoneID(zoneName: name, ownerRecordName: zoneOwner) }
}

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

/// How a save treats a record that the server already has (CKModifyRecordsOperation.RecordSavePolicy).
public enum SavePolicy: String, Sendable, Hashable, CaseIterable {
    /// Save only if the client's change tag is the server's: otherwise `serverRecordChanged`.
    case ifServerRecordUnchanged = "if-unchanged"
    /// Overwrite the given fields, keep the others, no change-tag check.
    case changedKeys = "changed-keys"
    /// Replace the whole record, no change-tag check.
    case allKeys = "all-keys"

    /// Accepts the CLI names and the CloudKit names.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "if-unchanged", "ifserverrecordunchanged", "if_server_record_unchanged": self = .ifServerRecordUnchanged
        case "changed-keys", "changedkeys", "changed_keys": self = .changedKeys
        case "all-keys", "allkeys", "all_keys": self = .allKeys
        default: return nil
        }
    }
}

/// A modify call: records to save (with the change tag the client last saw in their system
/// fields) and records to delete.
public struct ModifyRequest: Sendable {
    public var saves: [Record]
    public var deletes: [RecordID]
    public var policy: SavePolicy
    /// The fields of some saves as stored text, when the caller already holds them (the
    /// synchronizer reads them so from the local store): JSON that `RecordJSON.decodeFields`
    /// turns into exactly that record's `fields`. A backend that stores fields as this text
    /// may store it as it is instead of encoding the same fields again; any backend may ignore
    /// it.
    public var encodedFields: [RecordID: String]
    /// Fields of some saves given without a type (Web Services saves, where `type` is
    /// optional): each field's bare JSON value, by record. The service types them from the
    /// schema (or, for a field the schema does not know, from the value's shape) before the
    /// save; a value that cannot be typed fails that record alone (BAD_REQUEST). These fields
    /// are not in the record's `fields`.
    public var untypedFields: [RecordID: [String: JSONValue]]

    public init(saves: [Record] = [], deletes: [RecordID] = [], policy: SavePolicy = .ifServerRecordUnchanged,
                encodedFields: [RecordID: String] = [:], untypedFields: [RecordID: [String: JSONValue]] = [:]) {
        self.saves = saves
        self.deletes = deletes
        self.policy = policy
        self.encodedFields = encodedFields
        self.untypedFields = untypedFields
    }
}

/// The outcome of a modify call, item by item.
public struct ModifyResult: Sendable {
    /// Records as saved, with their new system fields.
    public var saved: [Record]
    /// Records deleted (including those removed by a DELETE_SELF reference).
    public var deleted: [RecordID]
    /// Items that failed, with their error.
    public var errors: [RecordID: CloudError]

    public init(saved: [Record] = [], deleted: [RecordID] = [], errors: [RecordID: CloudError] = [:]) {
        self.saved = saved
        self.deleted = deleted
        self.errors = errors
    }

    /// A `partialFailure` error carrying every per-item error, or nil when all succeeded.
    public var partialFailure: CloudError? {
        guard !errors.isEmpty else { return nil }
        if errors.count == 1, let (id, only) = errors.first {
            var error = only
            error.recordID = id
            return error
        }
        return CloudError(.partialFailure, "\(errors.count) of \(errors.count + saved.count + deleted.count) items failed",
                          partialErrors: errors)
    }
}

/// A query over one zone.
public struct RecordQuery: Sendable {
    public var recordType: String
    public var predicate: Predicate
    public var sort: [SortDescriptor]
    public var zoneName: String
    /// Page size; nil for the default.
    public var limit: Int?
    /// The continuation marker of the previous page.
    public var continuation: String?

    public init(recordType: String, predicate: Predicate = .truePredicate, sort: [SortDescriptor] = [],
                zoneName: String = ZoneID.defaultZoneName, limit: Int? = nil, continuation: String? = nil) {
        self.recordType = recordType
        self.predicate = predicate
        self.sort = sort
        self.zoneName = zoneName
        self.limit = limit
        self.continuation = continuation
    }
}

/// One page of query results.
public struct QueryPage: Sendable {
    public var records: [Record]
    /// Pass back as `continuation` for the next page; nil on the last page.
    public var continuation: String?

    public init(records: [Record], continuation: String?) {
        self.records = records
        self.continuation = continuation
    }
}

/// Why a zone went away.
public enum ZoneDeletionReason: String, Sendable, Hashable {
    /// Deleted by an app.
    case deleted
    /// Deleted by the user in iCloud settings.
    case purged
    /// In the shared database only: the share ended for this participant (removed, left, or
    /// the owner deleted the share or the zone). The zone and its records stay the owner's.
    case unshared
}

/// Zone-level changes of a database since a token.
public struct DatabaseChanges: Sendable {
    /// Zones with new record changes (or new zones). Deletions apply before changes: a zone
    /// deleted and re-created appears in both lists.
    public var changedZones: [ZoneID]
    public var deletedZones: [(zoneID: ZoneID, reason: ZoneDeletionReason)]
    public var token: ServerChangeToken
    public var moreComing: Bool

    public init(changedZones: [ZoneID], deletedZones: [(zoneID: ZoneID, reason: ZoneDeletionReason)],
                token: ServerChangeToken, moreComing: Bool) {
        self.changedZones = changedZones
        self.deletedZones = deletedZones
        self.token = token
        self.moreComing = moreComing
    }
}

/// A deleted record as change tracking reports it.
public struct RecordDeletion: Sendable, Hashable {
    public var recordID: RecordID
    public var recordType: String

    public init(recordID: RecordID, recordType: String) {
        self.recordID = recordID
        self.recordType = recordType
    }
}

/// One page of record changes of a zone.
public struct ZoneChanges: Sendable {
    /// Changed records, in the order the server committed them.
    public var changed: [Record]
    public var deleted: [RecordDeletion]
    /// The token to store together with this page.
    public var token: ServerChangeToken
    public var moreComing: Bool
    /// The fields of `changed[i]` as the backend stores them (JSON text that
    /// `RecordJSON.decodeFields` turns into exactly those fields), when it keeps them so: a
    /// cache that stores fields as text can keep this instead of encoding them again. Empty,
    /// or nil entries, where the backend has no such text.
    public var encodedFields: [String?]

    public init(changed: [Record], deleted: [RecordDeletion], token: ServerChangeToken, moreComing: Bool,
                encodedFields: [String?] = []) {
        self.changed = changed
        self.deleted = deleted
        self.token = token
        self.moreComing = moreComing
        self.encodedFields = encodedFields
    }
}
