import CloudSyncService
import CloudSyncCore
import CloudSyncSQLite

extension DeviceStore {
    // MARK: Writing (every write is a history transaction and marks the record pending)

    /// Creates or updates a local record: `fields` are set, `unset` removed. A new record needs
    /// a type; an existing one keeps its type (a different one is an error), and a field keeps
    /// its type. Recorded in history and marked pending in the same transaction.
    ///
    /// What the cloud would refuse is refused here, with nothing stored: reserved field names
    /// (`ServiceRules.validateAppFieldName`) and, for a local edit, a record over the cloud's size
    /// limit once pushed (`PushedRecordSize`).
    @discardableResult
    public func put(container: String, zone: String, name: String, type: String, fields: [String: FieldValue],
                    unset: [String] = [], device: String, author: String = LocalStoreDefaults.localAuthor,
                    now: Int64) throws(CloudError) -> (LocalRecord, HistoryTransaction) {
        try NameRules.validateZoneName(zone)
        try NameRules.validateRecordName(name)
        try NameRules.validateIdentifier(type, kind: "record type")
        for key in fields.keys { try ServiceRules.validateAppFieldName(key) }
        return try guarded {
            try connection.transaction(.immediate) {
                let (record, change) = try stagePut(container: container, zone: zone, name: name, type: type, fields: fields,
                                                    unset: unset, author: author, now: now)
                let txn = try recordHistory(container: container, changes: [change], device: device, author: author, now: now,
                                            markPending: author == LocalStoreDefaults.localAuthor)
                return (record, txn)
            }
        }
    }

    /// The write of `put` inside the caller's transaction, without its history: the record as
    /// stored and its history change.
    func stagePut(container: String, zone: String, name: String, type: String, fields: [String: FieldValue],
                  unset: [String], author: String, now: Int64) throws -> (LocalRecord, HistoryChange) {
        let existing = try loadLocal(container: container, zone: zone, name: name)
        var merged = existing?.fields ?? [:]
        if let existing {
            guard existing.recordType == type else {
                throw CloudError(.invalidArguments, "record '\(name)' is a \(existing.recordType), not a \(type)")
            }
            for (key, value) in fields {
                if let old = existing.fields[key], old.typeName != value.typeName {
                    throw CloudError(.invalidArguments,
                                     "field '\(key)' of '\(name)' is \(old.typeName); got \(value.typeName)")
                }
            }
        }
        for key in unset { merged[key] = nil }
        for (key, value) in fields { merged[key] = value }
        let record = LocalRecord(zoneName: zone, recordName: name, recordType: type, fields: merged, modified: now)
        let size = Record(recordID: RecordID(recordName: name, zoneID: ZoneID(zoneName: zone, ownerRecordName: "")),
                          recordType: type, fields: merged).estimatedSize
        if size > 50 * 1_048_576 {
            throw CloudError(.limitExceeded, "record '\(name)' would be \(size) bytes; the local store takes at most 50 MB per record")
        }
        if author == LocalStoreDefaults.localAuthor {
            try checkPushedSize(container: container, name: name, type: type, fields: merged)
        }
        try writeLocal(record, container: container)
        let keys = (Array(fields.keys) + unset.filter { existing?.fields[$0] != nil }).sorted()
        let change = HistoryChange(zoneName: zone, recordName: name, recordType: type,
                                   kind: existing == nil ? .insert : .update, changedKeys: keys)
        return (record, change)
    }

    /// Deletes a local record (history + pending). Returns nil when there was no such record.
    @discardableResult
    public func deleteLocal(container: String, zone: String, name: String, device: String,
                            author: String = LocalStoreDefaults.localAuthor, now: Int64) throws(CloudError) -> HistoryTransaction? {
        try guarded {
            try connection.transaction(.immediate) {
                guard let existing = try loadLocal(container: container, zone: zone, name: name) else { return nil }
                try connection.run("DELETE FROM local_records WHERE container=? AND zone_name=? AND record_name=?", container, zone, name)
                let change = HistoryChange(zoneName: zone, recordName: name, recordType: existing.recordType, kind: .delete, changedKeys: [])
                return try recordHistory(container: container, changes: [change], device: device, author: author, now: now,
                                         markPending: author == LocalStoreDefaults.localAuthor)
            }
        }
    }

    /// Writes a local record; `fieldsJSON`: its fields already encoded, if the caller has them.
    func writeLocal(_ record: LocalRecord, container: String, fieldsJSON: String? = nil) throws {
        try connection.prepare("""
            INSERT OR REPLACE INTO local_records(container, zone_name, record_name, record_type, fields, modified_ms)
            VALUES (?, ?, ?, ?, ?, ?)
            """).run { Self.bindLocal(record, container: container, fieldsJSON: fieldsJSON, to: &$0) }
    }

    /// The six values of a local_records row, in column order.
    static func bindLocal(_ record: LocalRecord, container: String, fieldsJSON: String?, to values: inout ParameterBinder) {
        values.bind(container)
        values.bind(record.zoneName)
        values.bind(record.recordName)
        values.bind(record.recordType)
        values.bind(fieldsJSON ?? RecordJSON.fieldsText(record.fields))
        values.bind(record.modified)
    }

    /// Inserts a local record unless the store has one of that name (inside a caller's
    /// transaction): true when inserted. One statement where a lookup and a write were two.
    func insertLocalIfAbsent(_ record: LocalRecord, container: String, fieldsJSON: String? = nil) throws -> Bool {
        try connection.prepare("""
            INSERT INTO local_records(container, zone_name, record_name, record_type, fields, modified_ms)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(container, zone_name, record_name) DO NOTHING
            """).run { Self.bindLocal(record, container: container, fieldsJSON: fieldsJSON, to: &$0) }
        return connection.changes > 0
    }

    /// History change rows one INSERT writes at most (6 parameters each).
    static let historyRowsPerStatement = 32

    /// The INSERT of `rows` history change rows.
    static func historyInsertSQL(rows: Int) -> String {
        "INSERT INTO history_changes(txn_id, zone_name, record_name, record_type, kind, changed_keys) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    static let fullHistoryInsertSQL = historyInsertSQL(rows: historyRowsPerStatement)

    func recordHistory(container: String, changes: [HistoryChange], device: String, author: String, now: Int64,
                       markPending: Bool) throws -> HistoryTransaction {
        try connection.run("INSERT INTO history(container, time_ms, device, author) VALUES (?, ?, ?, ?)", container, now, device, author)
        let id = connection.lastInsertRowID
        // A pulled page records hundreds of changes: several rows per INSERT, in order (as
        // the cache writer does), not one statement per change.
        var start = 0
        while start < changes.count {
            let count = min(Self.historyRowsPerStatement, changes.count - start)
            let sql = count == Self.historyRowsPerStatement ? Self.fullHistoryInsertSQL : Self.historyInsertSQL(rows: count)
            try connection.prepare(sql).run { values in
                for change in changes[start..<start + count] {
                    values.bind(id)
                    values.bind(change.zoneName)
                    values.bind(change.recordName)
                    values.bind(change.recordType)
                    values.bind(change.kind.rawValue)
                    values.bind(JSONValue.serializedStrings(change.changedKeys))
                }
            }
            start += count
        }
        if markPending {
            let pending = try connection.prepare("INSERT OR REPLACE INTO pending(container, zone_name, record_name, txn_id) VALUES (?, ?, ?, ?)")
            for change in changes { try pending.run([container, change.zoneName, change.recordName, id]) }
        }
        return HistoryTransaction(id: id, time: now, device: device, author: author, changes: changes)
    }

    // MARK: Reading

    func loadLocal(container: String, zone: String, name: String) throws -> LocalRecord? {
        try connection.queryOne("""
            SELECT record_type, fields, modified_ms FROM local_records WHERE container=? AND zone_name=? AND record_name=?
            """, [container, zone, name]) { row in
            LocalRecord(zoneName: zone, recordName: name, recordType: row.string(0),
                        fields: try DeviceStore.decodeFields(row, 1), modified: row.int64(2))
        }
    }

    static func decodeFields(_ row: Statement, _ column: Int32) throws -> [String: FieldValue] {
        try RecordJSON.decodeFields(bytes: row.withBytes(column) { Array($0) })
    }

    /// A local record, or nil.
    public func localRecord(container: String, zone: String, name: String) throws(CloudError) -> LocalRecord? {
        try guarded { try loadLocal(container: container, zone: zone, name: name) }
    }

    /// Local records of a type (in every zone, or one), in (zone, record name) order.
    public func localRecords(container: String, type: String?, zone: String? = nil) throws(CloudError) -> [LocalRecord] {
        var records: [LocalRecord] = []
        try forEachLocalRecord(container: container, type: type, zone: zone) { records.append($0); return true }
        return records
    }

    /// Visits the local records of a type (in every zone, or one) in (zone, record name) order,
    /// one row at a time, until `body` returns false: a filter holds only what it keeps.
    /// `body` must not query the store itself (the rows come from one open statement).
    /// `prefilter`: conditions SQLite checks first, so records they rule out are not decoded
    /// (a query's predicate pushed down; `body` still sees only a superset of its matches).
    public func forEachLocalRecord(container: String, type: String?, zone: String? = nil,
                                   prefilter: LocalQueryPrefilter? = nil,
                                   _ body: (LocalRecord) throws -> Bool) throws(CloudError) {
        try guarded {
            var sql = "SELECT zone_name, record_name, record_type, fields, modified_ms FROM local_records WHERE container=?"
            var args: [any SQLiteBindable] = [container]
            if let type { sql += " AND record_type=?"; args.append(type) }
            if let zone { sql += " AND zone_name=?"; args.append(zone) }
            if let prefilter {
                sql += prefilter.sql
                args += prefilter.arguments
            }
            sql += " ORDER BY zone_name, record_name"
            let statement = try connection.prepare(sql)
            try statement.bind(args)
            defer { statement.reset() }
            while try statement.step() {
                let record = LocalRecord(zoneName: statement.string(0), recordName: statement.string(1),
                                         recordType: statement.string(2), fields: try DeviceStore.decodeFields(statement, 3),
                                         modified: statement.int64(4))
                guard try body(record) else { break }
            }
        }
    }

    /// The zones the local store has records in.
    public func localZoneNames(container: String) throws(CloudError) -> [String] {
        try guarded { try connection.query("SELECT DISTINCT zone_name FROM local_records WHERE container=? ORDER BY 1", [container]) { $0.string(0) } }
    }

    /// Local record names of a zone, for re-uploading a zone.
    func localRecordNames(container: String, zone: String) throws -> [String] {
        try connection.query("SELECT record_name FROM local_records WHERE container=? AND zone_name=?", [container, zone]) { $0.string(0) }
    }

    /// History transactions after `since`, oldest first, at most `limit`.
    public func history(container: String, since: Int64 = 0, limit: Int = 1000) throws(CloudError) -> [HistoryTransaction] {
        try guarded {
            let txns = try connection.query("""
                SELECT txn_id, time_ms, device, author FROM history WHERE container=? AND txn_id>? ORDER BY txn_id LIMIT ?
                """, [container, since, limit]) {
                HistoryTransaction(id: $0.int64(0), time: $0.int64(1), device: $0.string(2), author: $0.string(3), changes: [])
            }
            guard let first = txns.first?.id, let last = txns.last?.id else { return [] }
            var byID: [Int64: [HistoryChange]] = [:]
            for (id, change) in try connection.query("""
                SELECT txn_id, zone_name, record_name, record_type, kind, changed_keys FROM history_changes
                WHERE txn_id BETWEEN ? AND ? ORDER BY rowid
                """, [first, last], { row -> (Int64, HistoryChange) in
                let keys = (try JSONValue.parse(row.string(5)).arrayValue ?? []).compactMap(\.stringValue)
                return (row.int64(0), HistoryChange(zoneName: row.string(1), recordName: row.string(2), recordType: row.string(3),
                                                    kind: ChangeKind(rawValue: row.string(4)) ?? .update, changedKeys: keys))
            }) {
                byID[id, default: []].append(change)
            }
            return txns.map { var t = $0; t.changes = byID[t.id] ?? []; return t }
        }
    }

    // MARK: Sync state

    /// A value of the store's sync state (merge policy, last sync time, …).
    public func syncState(container: String, _ key: String) throws(CloudError) -> String? {
        try guarded {
            try connection.queryOne("SELECT value FROM sync_state WHERE container=? AND key=?", [container, key]) { $0.string(0) }
        }
    }

    /// Calls `body` with the bytes of a sync-state value (nil when unset) where SQLite holds them,
    /// without copying them into a String, and with the container's latest history transaction
    /// (0 when none), read by the same statement: for a large value derived from the store and
    /// read on every run (the OTP label index), which is current when no transaction is newer
    /// than the one it reflects. The bytes are valid only inside `body`, which may query the store
    /// but must not read sync state this way itself (that would reuse the statement).
    public func withSyncStateBytes<R>(container: String, _ key: String,
                                      _ body: (_ value: UnsafeRawBufferPointer?, _ latestTransaction: Int64) throws(CloudError) -> R)
        throws(CloudError) -> R {
        let statement = try guarded {
            // The value is read straight into the result row (a join, not a scalar subquery,
            // whose result SQLite copies into another register with a terminator added: a
            // second copy of the ~55 KB label index in fresh heap, a dozen page faults).
            // `sync_state` is scanned, not searched by its key (the unary `+`s): it holds a few
            // rows per container, and a search compares the key with each row it visits by
            // copying that row's whole record first when it overflows its page, so finding the
            // label index copied all of it once more before reading it (~50,000 instructions).
            // A scan reads `container` and `key` from the part of the row on the page.
            try connection.prepare("""
                SELECT s.value, (SELECT txn_id FROM history WHERE container=?1 ORDER BY txn_id DESC LIMIT 1)
                FROM (SELECT 1) LEFT JOIN sync_state s ON +s.container=?1 AND +s.key=?2
                """).bind([container, key])
        }
        defer { statement.reset() }
        _ = try guarded { try statement.step() }
        return try body(statement.isNull(0) ? nil : statement.rawBytes(0), statement.int64(1))
    }

    /// Every sync-state value whose key starts with `prefix`.
    public func syncStates(container: String, prefix: String) throws(CloudError) -> [(String, String)] {
        try guarded {
            try connection.query("SELECT key, value FROM sync_state WHERE container=? AND substr(key, 1, ?)=? ORDER BY key",
                                 [container, prefix.utf8.count, prefix]) { ($0.string(0), $0.string(1)) }
        }
    }

    /// Sets (or with nil removes) a sync-state value.
    public func setSyncState(container: String, _ key: String, _ value: String?) throws(CloudError) {
        try guarded {
            if let value {
                try connection.run("INSERT OR REPLACE INTO sync_state(container, key, value) VALUES (?, ?, ?)", container, key, value)
            } else {
                try connection.run("DELETE FROM sync_state WHERE container=? AND key=?", container, key)
            }
        }
    }

    /// True when a record has local changes not yet in the cloud.
    public func isPending(container: String, zone: String, name: String) throws(CloudError) -> Bool {
        try guarded { try pendingRow(container: container, zone: zone, name: name) != nil }
    }

    /// The numbers `store status` shows.
    public func storeStatus(container: String) throws(CloudError) -> StoreStatusSummary {
        try guarded {
            StoreStatusSummary(
                records: Int(try connection.scalarInt("SELECT count(*) FROM local_records WHERE container=?", [container]) ?? 0),
                pending: Int(try connection.scalarInt("SELECT count(*) FROM pending WHERE container=?", [container]) ?? 0),
                lastSync: try connection.queryOne("SELECT value FROM sync_state WHERE container=? AND key='last_sync_ms'",
                                                  [container]) { Int64($0.string(0)) } ?? nil,
                hasDatabaseToken: (try connection.scalarInt("SELECT count(*) FROM database_tokens WHERE container=? AND scope LIKE 'store:%'",
                                                            [container]) ?? 0) > 0,
                zoneTokens: Int(try connection.scalarInt("SELECT count(*) FROM zone_tokens WHERE container=? AND scope LIKE 'store:%'",
                                                         [container]) ?? 0),
                conflicts: Int(try connection.scalarInt("SELECT count(*) FROM conflicts WHERE container=?", [container]) ?? 0),
                unresolvedConflicts: Int(try connection.scalarInt("SELECT count(*) FROM conflicts WHERE container=? AND resolved=0",
                                                                  [container]) ?? 0))
        }
    }

    /// How many records have changes not yet in the cloud.
    public func pendingCount(container: String) throws(CloudError) -> Int {
        try guarded { Int(try connection.scalarInt("SELECT count(*) FROM pending WHERE container=?", [container]) ?? 0) }
    }
}

/// The numbers of `store status`.
public struct StoreStatusSummary: Sendable, Hashable {
    public var records: Int
    public var pending: Int
    /// Milliseconds since the epoch of the last successful sync.
    public var lastSync: Int64?
    public var hasDatabaseToken: Bool
    public var zoneTokens: Int
    public var conflicts: Int
    public var unresolvedConflicts: Int
}
