import CloudSyncCore
import CloudSyncSQLite

extension DeviceStore {
    /// Rows one cache INSERT writes at most: 14 parameters each, far below SQLite's limit.
    /// A page or a pushed batch is hundreds of records; one statement per record spent as much
    /// in statement overhead (reset, bind, step set-up, halt) as in the b-tree writes.
    static let cacheRowsPerStatement = 32

    /// The INSERT OR REPLACE of `rows` cache rows.
    static func cacheUpsertSQL(rows: Int) -> String {
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        return """
            INSERT OR REPLACE INTO cached_records(container, scope, zone_name, owner, record_name, record_type,
                change_tag, fields, created_ms, created_user, created_device, modified_ms, modified_user, modified_device)
            VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
            """
    }

    static let fullCacheUpsertSQL = cacheUpsertSQL(rows: cacheRowsPerStatement)

    /// Stores the cloud's versions of `records` (inside a caller's transaction), in order: a
    /// record named twice ends as its last version. `fieldsJSON[i]`: the fields of `records[i]`
    /// already encoded, or nil to encode them here. `zone`: the zone the rows are filed under
    /// (a fetched page's), if not each record's own.
    func upsertCache(_ records: [Record], _ scope: CacheScope, fieldsJSON: [String?], zone: ZoneID? = nil) throws {
        precondition(fieldsJSON.count == records.count, "one fieldsJSON entry per record")
        var start = 0
        while start < records.count {
            let count = min(Self.cacheRowsPerStatement, records.count - start)
            let sql = count == Self.cacheRowsPerStatement ? Self.fullCacheUpsertSQL : Self.cacheUpsertSQL(rows: count)
            try connection.prepare(sql).run { values in
                for index in start..<start + count {
                    let record = records[index]
                    let system = record.system
                    let zoneID = zone ?? record.recordID.zoneID
                    values.bind(scope.container)
                    values.bind(scope.column)
                    values.bind(zoneID.zoneName)
                    values.bind(zoneID.ownerRecordName)
                    values.bind(record.recordID.recordName)
                    values.bind(record.recordType)
                    values.bind(system?.changeTag ?? "")
                    values.bind(fieldsJSON[index] ?? RecordJSON.fieldsText(record.fields))
                    values.bind(system?.created.timestamp ?? 0)
                    values.bind(system?.created.userRecordName ?? "")
                    values.bind(system?.created.deviceID ?? "")
                    values.bind(system?.modified.timestamp ?? 0)
                    values.bind(system?.modified.userRecordName ?? "")
                    values.bind(system?.modified.deviceID ?? "")
                }
            }
            start += count
        }
    }
}
