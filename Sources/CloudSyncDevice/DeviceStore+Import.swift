import CloudSyncService
import CloudSyncCore

/// One record of a `store import` batch: the record as the input line has it.
public struct ImportedRecord: Sendable {
    /// The zone (of the local store) the record goes to.
    public var zone: String
    /// The record name.
    public var name: String
    /// The record type; an existing record must have the same type.
    public var type: String
    /// Every field of the record: fields the store has and the line lacks are removed.
    public var fields: [String: FieldValue]

    /// A record to import.
    public init(zone: String, name: String, type: String, fields: [String: FieldValue]) {
        self.zone = zone
        self.name = name
        self.type = type
        self.fields = fields
    }
}

extension DeviceStore {
    /// Writes a batch of records in one database transaction and one history transaction (each
    /// record one change, marked pending), with the same checks as `put`. A record replaces the
    /// one of its name: it ends with exactly the fields given. Any failure writes nothing of the
    /// batch; the error names the record (its index in `records`, from 0).
    @discardableResult
    public func importRecords(container: String, _ records: [ImportedRecord], device: String,
                              now: Int64) throws(ImportFailure) -> HistoryTransaction? {
        guard !records.isEmpty else { return nil }
        var index = 0
        do {
            for record in records {
                try NameRules.validateZoneName(record.zone)
                try NameRules.validateRecordName(record.name)
                try NameRules.validateIdentifier(record.type, kind: "record type")
                for key in record.fields.keys { try ServiceRules.validateAppFieldName(key) }
                index += 1
            }
            index = 0
            return try guarded {
                try connection.transaction(.immediate) {
                    var changes: [HistoryChange] = []
                    changes.reserveCapacity(records.count)
                    for record in records {
                        let existing = try loadLocal(container: container, zone: record.zone, name: record.name)
                        let unset = existing.map { old in old.fields.keys.filter { record.fields[$0] == nil } } ?? []
                        let (_, change) = try stagePut(container: container, zone: record.zone, name: record.name,
                                                       type: record.type, fields: record.fields, unset: unset,
                                                       author: LocalStoreDefaults.localAuthor, now: now)
                        changes.append(change)
                        index += 1
                    }
                    return try recordHistory(container: container, changes: changes, device: device,
                                             author: LocalStoreDefaults.localAuthor, now: now, markPending: true)
                }
            }
        } catch {
            throw ImportFailure(index: index, error: error)
        }
    }
}

/// Why a `store import` batch was not written: the record at `index` of the batch (or, for a
/// failure of the database itself, the last record reached) and the error.
public struct ImportFailure: Error, Sendable {
    /// The index in the batch of the record that failed.
    public var index: Int
    /// The error.
    public var error: CloudError
}
