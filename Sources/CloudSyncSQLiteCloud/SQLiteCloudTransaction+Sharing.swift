import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

/// Shares, their participants and the zones of shared databases in the embedded cloud's file.
extension SQLiteCloudTransaction {
    func accountName(ofUserRecordName userRecordName: String) throws -> String? {
        try connection.queryOne("SELECT name FROM accounts WHERE user_record_name=?", [userRecordName], { $0.string(0) })
    }

    static let shareColumns = "zone_name, title, public_permission, token, created_ms, modified_ms"

    func shareRow(_ row: Statement) -> ShareRow {
        ShareRow(zoneName: row.string(0), title: row.string(1),
                 publicPermission: SharePermission(rawValue: row.string(2)) ?? .none, token: row.string(3),
                 created: row.int64(4), modified: row.int64(5))
    }

    func share(zoneName: String, dbID: Int64) throws -> ShareRow? {
        try connection.queryOne("SELECT \(Self.shareColumns) FROM shares WHERE db_id=? AND zone_name=?",
                                [dbID, zoneName]) { shareRow($0) }
    }

    func shares(dbID: Int64) throws -> [ShareRow] {
        try connection.query("SELECT \(Self.shareColumns) FROM shares WHERE db_id=? ORDER BY zone_name", [dbID]) { shareRow($0) }
    }

    func putShare(_ row: ShareRow, dbID: Int64) throws {
        try connection.run("""
            INSERT OR REPLACE INTO shares(db_id, zone_name, title, public_permission, token, created_ms, modified_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, dbID, row.zoneName, row.title, row.publicPermission.rawValue, row.token, row.created, row.modified)
    }

    func deleteShare(zoneName: String, dbID: Int64) throws {
        try connection.run("DELETE FROM share_participants WHERE db_id=? AND zone_name=?", dbID, zoneName)
        try connection.run("DELETE FROM shares WHERE db_id=? AND zone_name=?", dbID, zoneName)
    }

    func shareParticipants(zoneName: String, dbID: Int64) throws -> [ShareParticipantRow] {
        try connection.query("""
            SELECT participant, permission, accepted FROM share_participants
            WHERE db_id=? AND zone_name=? ORDER BY participant
            """, [dbID, zoneName]) {
            ShareParticipantRow(userRecordName: $0.string(0), permission: SharePermission(rawValue: $0.string(1)) ?? .none,
                                accepted: $0.bool(2))
        }
    }

    func putShareParticipant(_ row: ShareParticipantRow, zoneName: String, dbID: Int64) throws {
        try connection.run("""
            INSERT OR REPLACE INTO share_participants(db_id, zone_name, participant, permission, accepted)
            VALUES (?, ?, ?, ?, ?)
            """, dbID, zoneName, row.userRecordName, row.permission.rawValue, row.accepted)
    }

    func deleteShareParticipant(_ userRecordName: String, zoneName: String, dbID: Int64) throws {
        try connection.run("DELETE FROM share_participants WHERE db_id=? AND zone_name=? AND participant=?",
                           dbID, zoneName, userRecordName)
    }

    func sharedZones(dbID: Int64) throws -> [SharedZoneRow] {
        try connection.query("""
            SELECT owner, zone_name, live, db_seq FROM shared_zones WHERE db_id=? ORDER BY owner, zone_name
            """, [dbID]) {
            SharedZoneRow(owner: $0.string(0), zoneName: $0.string(1), live: $0.bool(2), dbSeq: $0.int64(3))
        }
    }

    func putSharedZone(_ row: SharedZoneRow, dbID: Int64) throws {
        try connection.run("""
            INSERT OR REPLACE INTO shared_zones(db_id, owner, zone_name, live, db_seq) VALUES (?, ?, ?, ?, ?)
            """, dbID, row.owner, row.zoneName, row.live, row.dbSeq)
    }

    func sharedZoneChanges(dbID: Int64, since: Int64, limit: Int) throws -> [SharedZoneRow] {
        try connection.query("""
            SELECT owner, zone_name, live, db_seq FROM shared_zones
            WHERE db_id=? AND db_seq>? ORDER BY db_seq LIMIT ?
            """, [dbID, since, Int64(limit)]) {
            SharedZoneRow(owner: $0.string(0), zoneName: $0.string(1), live: $0.bool(2), dbSeq: $0.int64(3))
        }
    }
}
