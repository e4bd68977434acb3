import CloudSyncCore

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
