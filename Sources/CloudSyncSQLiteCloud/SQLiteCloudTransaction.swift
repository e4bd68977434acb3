import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

/// The storage primitives of the embedded cloud, inside one transaction of its connection:
/// accounts, databases and zones here; records, schema and assets in
/// `SQLiteCloudTransaction+Records`; key-value stores, subscriptions and notification queues in
/// `SQLiteCloudTransaction+Accounts`.
struct SQLiteCloudTransaction: CloudStorageTransaction {
    let connection: Connection
    /// The cloud file's path (for the second connection of record images and the wake-up files).
    let path: String

    func nested<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction(.immediate, body)
    }

    // MARK: Accounts

    func userRecordName(ofAccount name: String) throws -> String? {
        try connection.queryOne("SELECT user_record_name FROM accounts WHERE name=?", [name], { $0.string(0) })
    }

    func insertAccountIfAbsent(name: String, userRecordName: String, now: Int64) throws {
        try connection.run("INSERT OR IGNORE INTO accounts(name, user_record_name, created_ms) VALUES (?, ?, ?)",
                           name, userRecordName, now)
    }

    // MARK: Databases

    func findDatabase(container: String, scope: DatabaseScope, owner: String) throws -> DatabaseRow? {
        try connection.queryOne("SELECT db_id, seq FROM databases WHERE container=? AND scope=? AND owner=?",
                                [container, scope.rawValue, owner]) {
            DatabaseRow(id: $0.int64(0), seq: $0.int64(1))
        }
    }

    func createDatabase(container: String, scope: DatabaseScope, owner: String, now: Int64) throws -> DatabaseRow {
        try connection.run("INSERT INTO databases(container, scope, owner, seq) VALUES (?, ?, ?, 0)",
                           container, scope.rawValue, owner)
        let id = connection.lastInsertRowID
        try connection.run("""
            INSERT INTO zones(db_id, name, atomic, seq, db_seq, created_ms) VALUES (?, ?, 0, 0, 0, ?)
            """, id, ZoneID.defaultZoneName, now)
        return DatabaseRow(id: id, seq: 0)
    }

    func nextDatabaseSeq(_ dbID: Int64) throws -> Int64 {
        guard let seq = try connection.scalarInt("UPDATE databases SET seq = seq + 1 WHERE db_id=? RETURNING seq", [dbID]) else {
            throw CloudError(.internalError, "database \(dbID) vanished")
        }
        return seq
    }

    // MARK: Zones

    func findZone(_ name: String, dbID: Int64) throws -> ZoneRow? {
        try connection.queryOne("""
            SELECT zone_id, atomic, seq, floor_seq, record_count FROM zones WHERE db_id=? AND name=? AND deleted=0
            """, [dbID, name]) {
            ZoneRow(id: $0.int64(0), name: name, atomic: $0.bool(1), seq: $0.int64(2), floorSeq: $0.int64(3),
                    recordCount: $0.int(4))
        }
    }

    func deletedZoneReason(_ name: String, dbID: Int64) throws -> ZoneDeletionReason? {
        try connection.queryOne(
            "SELECT deleted FROM zones WHERE db_id=? AND name=? AND deleted>0 ORDER BY db_seq DESC LIMIT 1",
            [dbID, name], { $0.int64(0) == 2 ? ZoneDeletionReason.purged : .deleted })
    }

    func liveZones(dbID: Int64) throws -> [ZoneRow] {
        try connection.query("""
            SELECT zone_id, name, atomic, seq, floor_seq, record_count FROM zones
            WHERE db_id=? AND deleted=0 ORDER BY name<>'_defaultZone', name
            """, [dbID]) {
            ZoneRow(id: $0.int64(0), name: $0.string(1), atomic: $0.bool(2), seq: $0.int64(3),
                    floorSeq: $0.int64(4), recordCount: $0.int(5))
        }
    }

    func createZone(_ name: String, atomic: Bool, dbID: Int64, dbSeq: Int64, now: Int64) throws -> ZoneRow {
        try connection.run("""
            INSERT INTO zones(db_id, name, atomic, seq, db_seq, created_ms) VALUES (?, ?, ?, 0, ?, ?)
            """, dbID, name, atomic, dbSeq, now)
        return ZoneRow(id: connection.lastInsertRowID, name: name, atomic: atomic, seq: 0, floorSeq: 0, recordCount: 0)
    }

    func deleteZone(_ zone: ZoneRow, dbID: Int64, purge: Bool, dbSeq: Int64) throws {
        try connection.run("DELETE FROM records WHERE db_id=? AND zone_id=?", dbID, zone.id)
        try connection.run("DELETE FROM refs WHERE db_id=? AND zone_id=?", dbID, zone.id)
        try connection.run("UPDATE zones SET deleted=?, db_seq=?, record_count=0 WHERE zone_id=?",
                           purge ? 2 : 1, dbSeq, zone.id)
    }

    func advanceZone(_ zone: ZoneRow, dbID: Int64, seq: Int64, dbSeq: Int64, countDelta: Int) throws {
        try connection.run("UPDATE zones SET seq=?, db_seq=?, record_count=record_count+? WHERE zone_id=?",
                           seq, dbSeq, countDelta, zone.id)
    }

    func zoneChanges(dbID: Int64, since: Int64, limit: Int) throws -> [ZoneChangeRow] {
        try connection.query("""
            SELECT name, deleted, db_seq FROM zones
            WHERE db_id=? AND db_seq>? AND name<>'_defaultZone' ORDER BY db_seq LIMIT ?
            """, [dbID, since, Int64(limit)]) {
            let state = $0.int64(1)
            return ZoneChangeRow(name: $0.string(0), deletion: state == 0 ? nil : state == 2 ? .purged : .deleted,
                                 dbSeq: $0.int64(2))
        }
    }
}
