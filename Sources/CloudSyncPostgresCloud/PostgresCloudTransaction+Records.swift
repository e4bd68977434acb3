import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

extension PostgresCloudTransaction {
    /// Columns read for a full record, in the order `decodeRow` expects.
    static let recordColumns = """
        name, type, change_tag, fields, created_ms, created_user, created_device, \
        modified_ms, modified_user, modified_device, seq, deleted, has_refs
        """

    /// `keepingText`: also keep the fields column's text (for fetched changes).
    static func decodeRow(_ row: PostgresRow, zoneID: ZoneID, keepingText: Bool = false) throws -> StoredRecord {
        let recordID = RecordID(recordName: try row.text(0), zoneID: zoneID)
        let deleted = row[11].bool ?? false
        var fields: [String: FieldValue] = [:]
        var text: String?
        if !deleted, let stored = row[3].text {
            fields = try RecordJSON.decodeFields(bytes: Array(stored.utf8))
            if keepingText { text = stored }
        }
        let system = SystemFields(
            changeTag: row[2].text ?? "",
            created: ChangeStamp(timestamp: try row.int64(4), userRecordName: try row.text(5), deviceID: try row.text(6)),
            modified: ChangeStamp(timestamp: try row.int64(7), userRecordName: try row.text(8), deviceID: try row.text(9)))
        return StoredRecord(record: Record(recordID: recordID, recordType: try row.text(1), fields: fields, system: system),
                            seq: try row.int64(10), deleted: deleted, hasRefs: row[12].bool ?? false, fieldsText: text)
    }

    /// Reads the named rows in one statement; `loadRecord` and `writeRecord` then use them (see
    /// `PostgresRecordBatch`).
    func prepareRecords(_ names: [String], zone: ZoneRow, dbID: Int64, zoneID: ZoneID) throws {
        guard writing, !names.isEmpty else { return }
        let rows = try takePrefetchedRecords(names, zoneName: zone.name, dbID: dbID) ?? run("""
            SELECT \(Self.recordColumns) FROM records WHERE db_id=$1 AND zone_id=$2 AND name = ANY($3::text[])
            """, [.int64(dbID), .int64(zone.id), try .textArray(names)]).rows
        for name in names { batch.known[PostgresRecordBatch.Key(dbID: dbID, zoneID: zone.id, name: name)] = .some(nil) }
        for row in rows {
            let record = try Self.decodeRow(row, zoneID: zoneID)
            batch.known[PostgresRecordBatch.Key(dbID: dbID, zoneID: zone.id, name: record.record.recordID.recordName)] = record
        }
    }

    func loadRecord(_ name: String, zone: ZoneRow, dbID: Int64, zoneID: ZoneID) throws -> StoredRecord? {
        if let known = batch.known[PostgresRecordBatch.Key(dbID: dbID, zoneID: zone.id, name: name)] { return known }
        return try run("SELECT \(Self.recordColumns) FROM records WHERE db_id=$1 AND zone_id=$2 AND name=$3",
                       [.int64(dbID), .int64(zone.id), .text(name)]).first.map { try Self.decodeRow($0, zoneID: zoneID) }
    }

    /// One statement: `ON CONFLICT DO NOTHING` for a blind insert (a row of that name, live or
    /// tombstone, leaves it undone), `ON CONFLICT DO UPDATE` otherwise. Queued instead (sent
    /// with the others of the call) when it needs no answer: a replacing write, or a blind
    /// insert of a name `prepareRecords` read.
    func writeRecord(_ row: RecordWrite, zone: ZoneRow, dbID: Int64, ifAbsent: Bool) throws -> Bool {
        // Two hash look-ups per queued record: the row read ahead taken out, the name marked pending.
        let key = PostgresRecordBatch.Key(dbID: dbID, zoneID: zone.id, name: row.name)
        let known = writing ? batch.known.removeValue(forKey: key) : nil
        if writing, !ifAbsent || known != nil {
            if ifAbsent, case .some(.some(let stored)) = known {
                batch.known[key] = stored  // the general save that follows reads it
                return false
            }
            if !batch.pendingNames.insert(key).inserted {
                try batch.flush(connection)
                batch.pendingNames.insert(key)
            }
            let absent = if case .some(.none) = known { true } else { false }
            batch.pending.append(PostgresRecordBatch.PendingRecord(dbID: dbID, zoneID: zone.id, row: row, absent: absent))
            if batch.pending.count >= PostgresRecordBatch.sendAheadRows { try batch.sendAhead(connection) }
            return true
        }
        let conflict = ifAbsent ? "DO NOTHING" : """
            DO UPDATE SET type=excluded.type, seq=excluded.seq, change_tag=excluded.change_tag, deleted=false,
                fields=excluded.fields, has_refs=excluded.has_refs, created_ms=excluded.created_ms,
                created_user=excluded.created_user, created_device=excluded.created_device,
                modified_ms=excluded.modified_ms, modified_user=excluded.modified_user,
                modified_device=excluded.modified_device
            """
        let result = try run("""
            INSERT INTO records(db_id, zone_id, name, type, seq, change_tag, deleted, fields, has_refs, created_ms,
                created_user, created_device, modified_ms, modified_user, modified_device)
            VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8, $9, $10, $11, $12, $13, $14)
            ON CONFLICT(db_id, zone_id, name) \(conflict)
            """, [.int64(dbID), .int64(zone.id), .text(row.name), .text(row.type), .int64(row.seq), .text(row.changeTag),
                  .text(row.fieldsText), .bool(row.hasRefs), .int64(row.created.timestamp),
                  .text(row.created.userRecordName), .text(row.created.deviceID), .int64(row.modified.timestamp),
                  .text(row.modified.userRecordName), .text(row.modified.deviceID)])
        return !ifAbsent || result.affectedRows > 0
    }

    func tombstoneRecord(_ name: String, zone: ZoneRow, dbID: Int64, seq: Int64, stamp: ChangeStamp) throws {
        batch.known.removeValue(forKey: PostgresRecordBatch.Key(dbID: dbID, zoneID: zone.id, name: name))
        try run("""
            UPDATE records SET deleted=true, seq=$1, change_tag=NULL, fields=NULL, has_refs=false,
                modified_ms=$2, modified_user=$3, modified_device=$4
            WHERE db_id=$5 AND zone_id=$6 AND name=$7
            """, [.int64(seq), .int64(stamp.timestamp), .text(stamp.userRecordName), .text(stamp.deviceID),
                  .int64(dbID), .int64(zone.id), .text(name)])
    }

    func removeReferences(from source: String, zone: ZoneRow, dbID: Int64) throws {
        try run("DELETE FROM refs WHERE db_id=$1 AND zone_id=$2 AND source=$3", [.int64(dbID), .int64(zone.id), .text(source)])
    }

    /// Queued: sent with the call's other writes.
    func addReference(from source: String, to target: String, zone: ZoneRow, dbID: Int64) throws {
        guard writing else {
            try run("INSERT INTO refs(db_id, zone_id, target, source) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                    [.int64(dbID), .int64(zone.id), .text(target), .text(source)])
            return
        }
        batch.pendingReferences.append(PostgresRecordBatch.PendingReference(dbID: dbID, zoneID: zone.id, source: source,
                                                                            target: target))
    }

    func referenceSources(to target: String, zone: ZoneRow, dbID: Int64) throws -> [String] {
        try run("SELECT source FROM refs WHERE db_id=$1 AND zone_id=$2 AND target=$3",
                [.int64(dbID), .int64(zone.id), .text(target)]).rows.map { try $0.text(0) }
    }

    /// Reads one row past `limit` to tell `moreComing`. Every row comes whole (`known` unused).
    func recordChanges(zone: ZoneRow, dbID: Int64, zoneID: ZoneID, since: Int64, limit: Int,
                       holding known: (any KnownRecordVersions)?) throws -> (records: [StoredRecord], moreComing: Bool) {
        let rows = try run("""
            SELECT \(Self.recordColumns) FROM records
            WHERE db_id=$1 AND zone_id=$2 AND seq>$3 ORDER BY seq LIMIT $4
            """, [.int64(dbID), .int64(zone.id), .int64(since), .int64(Int64(limit) + 1)]).rows
        let records = try rows.prefix(limit).map { try Self.decodeRow($0, zoneID: zoneID, keepingText: true) }
        return (records, rows.count > limit)
    }

    /// Without an order, one statement reads every row; with one, batches of `order.batchSize`
    /// rows in that order, each starting after the last row of the one before.
    func scanRecords(ofType recordType: String, zone: ZoneRow, dbID: Int64, zoneID: ZoneID,
                     order: QueryScanOrder?, _ visit: (Record) throws -> Bool) throws {
        let base = [PostgresValue.int64(dbID), .int64(zone.id), .text(recordType)]
        guard var order else {
            for row in try run("""
                SELECT \(Self.recordColumns) FROM records WHERE db_id=$1 AND zone_id=$2 AND deleted=false AND type=$3
                """, base).rows {
                guard try visit(try Self.decodeRow(row, zoneID: zoneID).record) else { return }
            }
            return
        }
        while true {
            let keyset = order.sql(firstParameter: 5) { "$\($0)" }
            var parameters = base + [.int64(Int64(order.batchSize))]
            for value in order.after ?? [] {
                switch value {
                case .integer(let number): parameters.append(.int64(number))
                case .text(let text): parameters.append(.text(text))
                }
            }
            let rows = try run("""
                SELECT \(Self.recordColumns) FROM records
                WHERE db_id=$1 AND zone_id=$2 AND deleted=false AND type=$3\(keyset.condition)
                ORDER BY \(keyset.orderBy) LIMIT $4
                """, parameters).rows
            var last: Record?
            for row in rows {
                let record = try Self.decodeRow(row, zoneID: zoneID).record
                guard try visit(record) else { return }
                last = record
            }
            guard rows.count == order.batchSize, let last else { return }
            order.after = order.values(of: last)
        }
    }

    /// Read on a second connection, which sees the last committed state: the state before this
    /// transaction, since this writer holds the database's write lock.
    func recordImagesBeforeTransaction(_ names: Set<String>, zone: ZoneRow, dbID: Int64,
                                       zoneID: ZoneID) -> [String: NotificationRecordImage]? {
        guard !names.isEmpty else { return [:] }
        return storage.imageLock.withLock { _ in images(names, zone: zone, dbID: dbID, zoneID: zoneID) }
    }

    /// `recordImagesBeforeTransaction`, holding the image connection's lock.
    private func images(_ names: Set<String>, zone: ZoneRow, dbID: Int64,
                        zoneID: ZoneID) -> [String: NotificationRecordImage]? {
        do {
            if storage.imageConnection == nil { storage.imageConnection = try PostgresCloudStorage.connect(storage.url) }
            guard let reader = storage.imageConnection else { return nil }
            let rows = try reader.queryPrepared("""
                SELECT name, deleted, type, fields, created_ms, modified_ms FROM records
                WHERE db_id=$1 AND zone_id=$2 AND name = ANY($3::text[])
                """, [.int64(dbID), .int64(zone.id), try .textArray(names)]).rows
            var images: [String: NotificationRecordImage] = [:]
            for name in names { images[name] = NotificationRecordImage(live: false, record: nil) }
            for row in rows {
                let name = try row.text(0)
                guard row[1].bool == false else { continue }
                let fields = try row[3].text.map { try RecordJSON.decodeFields(bytes: Array($0.utf8)) } ?? [:]
                let system = SystemFields(
                    changeTag: "",
                    created: ChangeStamp(timestamp: try row.int64(4), userRecordName: "", deviceID: ""),
                    modified: ChangeStamp(timestamp: try row.int64(5), userRecordName: "", deviceID: ""))
                images[name] = NotificationRecordImage(
                    live: true, record: Record(recordID: RecordID(recordName: name, zoneID: zoneID), recordType: try row.text(2),
                                               fields: fields, system: system))
            }
            return images
        } catch {
            storage.imageConnection = nil
            return nil
        }
    }

    // MARK: Schema

    func schemaFields(container: String, recordType: String) throws -> [String: FieldTypeName] {
        var known: [String: FieldTypeName] = [:]
        for row in try run("SELECT field, type FROM schema_fields WHERE container=$1 AND record_type=$2",
                           [.text(container), .text(recordType)]).rows {
            if let parsed = FieldTypeName(try row.text(1)) { known[try row.text(0)] = parsed }
        }
        return known
    }

    func addSchemaFieldIfAbsent(container: String, recordType: String, field: String, type: FieldTypeName) throws -> Bool {
        try run("""
            INSERT INTO schema_fields(container, record_type, field, type) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING
            """, [.text(container), .text(recordType), .text(field), .text(type.description)]).affectedRows > 0
    }

    func schemaFieldType(container: String, recordType: String, field: String) throws -> String? {
        try run("SELECT type FROM schema_fields WHERE container=$1 AND record_type=$2 AND field=$3",
                [.text(container), .text(recordType), .text(field)]).first?[0].text
    }

    func allSchemaFields(container: String) throws -> [String: [String: FieldTypeName]] {
        var all: [String: [String: FieldTypeName]] = [:]
        for row in try run("SELECT record_type, field, type FROM schema_fields WHERE container=$1", [.text(container)]).rows {
            if let parsed = FieldTypeName(try row.text(2)) { all[try row.text(0), default: [:]][try row.text(1)] = parsed }
        }
        return all
    }

    func removeSchemaFields(container: String) throws {
        try run("DELETE FROM schema_fields WHERE container=$1", [.text(container)])
    }

    func declaredSchema(container: String) throws -> String? {
        try run("SELECT text FROM declared_schemas WHERE container=$1", [.text(container)]).first?[0].text
    }

    func setDeclaredSchema(_ text: String?, container: String) throws {
        if let text {
            try run("""
                INSERT INTO declared_schemas(container, text) VALUES ($1, $2)
                ON CONFLICT(container) DO UPDATE SET text=excluded.text
                """, [.text(container), .text(text)])
        } else {
            try run("DELETE FROM declared_schemas WHERE container=$1", [.text(container)])
        }
    }

    func databases(container: String) throws -> [DatabaseRow] {
        try run("SELECT db_id, seq FROM databases WHERE container=$1 ORDER BY db_id", [.text(container)]).rows
            .map { DatabaseRow(id: try $0.int64(0), seq: try $0.int64(1)) }
    }

    // MARK: Assets

    func insertAssetIfAbsent(_ reference: AssetReference, data: [UInt8], dbID: Int64, now: Int64) throws {
        try run("""
            INSERT INTO assets(db_id, checksum, size, data, created_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING
            """, [.int64(dbID), .text(reference.checksum), .int64(reference.size), .bytes(data), .int64(now)])
    }

    func assetData(checksum: String, dbID: Int64) throws -> [UInt8]? {
        try run("SELECT data FROM assets WHERE db_id=$1 AND checksum=$2", [.int64(dbID), .text(checksum)]).first?[0].bytes
    }

    func assetSize(checksum: String, dbID: Int64) throws -> Int64? {
        try run("SELECT size FROM assets WHERE db_id=$1 AND checksum=$2", [.int64(dbID), .text(checksum)]).first?[0].int64
    }
}
