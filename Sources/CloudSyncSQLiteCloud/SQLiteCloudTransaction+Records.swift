import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

extension SQLiteCloudTransaction {
    /// Columns read for a full record, in the order `decodeRow` expects.
    static let recordColumns = """
        name, type, change_tag, fields, created_ms, created_user, created_device, \
        modified_ms, modified_user, modified_device, seq, deleted, has_refs
        """

    /// `keepingText`: also keep the fields column's text (for fetched changes). `hollow`: leave
    /// the fields out (a version the fetching caller holds, see `CloudService.fetchZoneChanges`).
    func decodeRow(_ row: Statement, zoneID: ZoneID, keepingText: Bool = false, hollow: Bool = false) throws -> StoredRecord {
        let recordID = RecordID(recordName: row.string(0), zoneID: zoneID)
        let deleted = row.bool(11)
        var fields: [String: FieldValue] = [:]
        var text: String?
        if !deleted, !hollow, !row.isNull(3) {
            let bytes = row.withBytes(3) { Array($0) }
            fields = try RecordJSON.decodeFields(bytes: bytes)
            if keepingText { text = String(decoding: bytes, as: UTF8.self) }
        }
        let system = SystemFields(
            changeTag: row.optionalString(2) ?? "",
            created: ChangeStamp(timestamp: row.int64(4), userRecordName: row.string(5), deviceID: row.string(6)),
            modified: ChangeStamp(timestamp: row.int64(7), userRecordName: row.string(8), deviceID: row.string(9)))
        return StoredRecord(record: Record(recordID: recordID, recordType: row.string(1), fields: fields, system: system),
                            seq: row.int64(10), deleted: deleted, hasRefs: row.bool(12), fieldsText: text)
    }

    func loadRecord(_ name: String, zone: ZoneRow, dbID: Int64, zoneID: ZoneID) throws -> StoredRecord? {
        try connection.queryOne("SELECT \(Self.recordColumns) FROM records WHERE db_id=? AND zone_id=? AND name=?",
                                [dbID, zone.id, name]) { try decodeRow($0, zoneID: zoneID) }
    }

    /// One statement: `INSERT OR IGNORE` for a blind insert (a row of that name, live or
    /// tombstone, leaves it undone), `INSERT OR REPLACE` otherwise.
    func writeRecord(_ row: RecordWrite, zone: ZoneRow, dbID: Int64, ifAbsent: Bool) throws -> Bool {
        try connection.prepare(ifAbsent ? Self.insertRecordSQL : Self.replaceRecordSQL).run { values in
            values.bind(dbID)
            values.bind(zone.id)
            values.bind(row.name)
            values.bind(row.type)
            values.bind(row.seq)
            values.bind(row.changeTag)
            values.bind(row.fieldsText)
            values.bind(row.hasRefs)
            values.bind(row.created.timestamp)
            values.bind(row.created.userRecordName)
            values.bind(row.created.deviceID)
            values.bind(row.modified.timestamp)
            values.bind(row.modified.userRecordName)
            values.bind(row.modified.deviceID)
        }
        return !ifAbsent || connection.changes > 0
    }

    /// A record row written unless one of that name exists, or replacing it (`writeRecord`).
    static let insertRecordSQL = recordWriteSQL("OR IGNORE"), replaceRecordSQL = recordWriteSQL("OR REPLACE")

    static func recordWriteSQL(_ conflict: String) -> String {
        """
        INSERT \(conflict) INTO records(db_id, zone_id, name, type, seq, change_tag, deleted,
            fields, has_refs, created_ms, created_user, created_device, modified_ms, modified_user, modified_device)
        VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    }

    func tombstoneRecord(_ name: String, zone: ZoneRow, dbID: Int64, seq: Int64, stamp: ChangeStamp) throws {
        try connection.run("""
            UPDATE records SET deleted=1, seq=?, change_tag=NULL, fields=NULL, has_refs=0,
                modified_ms=?, modified_user=?, modified_device=?
            WHERE db_id=? AND zone_id=? AND name=?
            """, seq, stamp.timestamp, stamp.userRecordName, stamp.deviceID, dbID, zone.id, name)
    }

    func removeReferences(from source: String, zone: ZoneRow, dbID: Int64) throws {
        try connection.run("DELETE FROM refs WHERE db_id=? AND zone_id=? AND source=?", dbID, zone.id, source)
    }

    func addReference(from source: String, to target: String, zone: ZoneRow, dbID: Int64) throws {
        try connection.run("INSERT OR IGNORE INTO refs(db_id, zone_id, target, source) VALUES (?, ?, ?, ?)",
                           dbID, zone.id, target, source)
    }

    func referenceSources(to target: String, zone: ZoneRow, dbID: Int64) throws -> [String] {
        try connection.query("SELECT source FROM refs WHERE db_id=? AND zone_id=? AND target=?",
                             [dbID, zone.id, target]) { $0.string(0) }
    }

    /// Steps one row past `limit` without decoding it, to tell `moreComing`.
    func recordChanges(zone: ZoneRow, dbID: Int64, zoneID: ZoneID, since: Int64, limit: Int,
                       holding known: (any KnownRecordVersions)?) throws -> (records: [StoredRecord], moreComing: Bool) {
        let statement = try connection.prepare("""
            SELECT \(Self.recordColumns) FROM records
            WHERE db_id=? AND zone_id=? AND seq>? ORDER BY seq LIMIT ?
            """)
        try statement.bind([dbID, zone.id, since, Int64(limit + 1)])
        defer { statement.reset() }
        var records: [StoredRecord] = []
        while try statement.step() {
            if records.count == limit { return (records, true) }
            let hollow = known.map { !statement.bool(11) && $0.holds(zone: zoneID.zoneName, name: statement.string(0),
                                                                      tag: statement.optionalString(2) ?? "") } ?? false
            records.append(try decodeRow(statement, zoneID: zoneID, keepingText: true, hollow: hollow))
        }
        return (records, false)
    }

    func scanRecords(ofType recordType: String, zone: ZoneRow, dbID: Int64, zoneID: ZoneID,
                     order: QueryScanOrder?, _ visit: (Record) throws -> Bool) throws {
        let keyset = order?.sql(firstParameter: 4) { "?\($0)" }
        let statement = try connection.prepare("""
            SELECT \(Self.recordColumns) FROM records
            WHERE db_id=?1 AND zone_id=?2 AND deleted=0 AND type=?3\(keyset?.condition ?? "")
            \(keyset.map { "ORDER BY \($0.orderBy)" } ?? "")
            """)
        var values: [any SQLiteBindable] = [dbID, zone.id, recordType]
        for value in order?.after ?? [] {
            switch value {
            case .integer(let number): values.append(number)
            case .text(let text): values.append(text)
            }
        }
        try statement.bind(values)
        defer { statement.reset() }
        while try statement.step() {
            guard try visit(try decodeRow(statement, zoneID: zoneID).record) else { return }
        }
    }

    func recordImagesBeforeTransaction(_ names: Set<String>, zone: ZoneRow, dbID: Int64,
                                       zoneID: ZoneID) -> [String: NotificationRecordImage]? {
        NotificationRecordImages.load(path: path, dbID: dbID, zoneID: zone.id, zone: zoneID, names: names)
    }

    // MARK: Schema

    func schemaFields(container: String, recordType: String) throws -> [String: FieldTypeName] {
        var known: [String: FieldTypeName] = [:]
        for (field, type) in try connection.query(
            "SELECT field, type FROM schema_fields WHERE container=? AND record_type=?", [container, recordType],
            { ($0.string(0), $0.string(1)) }) {
            if let parsed = FieldTypeName(type) { known[field] = parsed }
        }
        return known
    }

    func addSchemaFieldIfAbsent(container: String, recordType: String, field: String, type: FieldTypeName) throws -> Bool {
        try connection.run("""
            INSERT INTO schema_fields(container, record_type, field, type) VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """, container, recordType, field, type.description)
        return connection.changes > 0
    }

    func schemaFieldType(container: String, recordType: String, field: String) throws -> String? {
        try connection.queryOne("SELECT type FROM schema_fields WHERE container=? AND record_type=? AND field=?",
                                [container, recordType, field]) { $0.string(0) }
    }

    func allSchemaFields(container: String) throws -> [String: [String: FieldTypeName]] {
        var all: [String: [String: FieldTypeName]] = [:]
        for (recordType, field, type) in try connection.query(
            "SELECT record_type, field, type FROM schema_fields WHERE container=?", [container],
            { ($0.string(0), $0.string(1), $0.string(2)) }) {
            if let parsed = FieldTypeName(type) { all[recordType, default: [:]][field] = parsed }
        }
        return all
    }

    func removeSchemaFields(container: String) throws {
        try connection.run("DELETE FROM schema_fields WHERE container=?", container)
    }

    func declaredSchema(container: String) throws -> String? {
        try connection.queryOne("SELECT text FROM declared_schemas WHERE container=?", [container]) { $0.string(0) }
    }

    func setDeclaredSchema(_ text: String?, container: String) throws {
        if let text {
            try connection.run("""
                INSERT INTO declared_schemas(container, text) VALUES (?, ?)
                ON CONFLICT(container) DO UPDATE SET text=excluded.text
                """, container, text)
        } else {
            try connection.run("DELETE FROM declared_schemas WHERE container=?", container)
        }
    }

    func databases(container: String) throws -> [DatabaseRow] {
        try connection.query("SELECT db_id, seq FROM databases WHERE container=? ORDER BY db_id", [container]) {
            DatabaseRow(id: $0.int64(0), seq: $0.int64(1))
        }
    }

    // MARK: Assets

    func insertAssetIfAbsent(_ reference: AssetReference, data: [UInt8], dbID: Int64, now: Int64) throws {
        try connection.prepare("""
            INSERT OR IGNORE INTO assets(db_id, checksum, size, data, created_ms) VALUES (?, ?, ?, ?, ?)
            """).run([dbID, reference.checksum, reference.size, data, now])
    }

    func assetData(checksum: String, dbID: Int64) throws -> [UInt8]? {
        try connection.queryOne("SELECT data FROM assets WHERE db_id=? AND checksum=?", [dbID, checksum], { $0.blob(0) })
    }

    func assetSize(checksum: String, dbID: Int64) throws -> Int64? {
        try connection.scalarInt("SELECT size FROM assets WHERE db_id=? AND checksum=?", [dbID, checksum])
    }
}
