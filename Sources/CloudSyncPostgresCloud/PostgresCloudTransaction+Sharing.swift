import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

/// Shares, their participants and the zones of shared databases (issue 18) in PostgreSQL.
extension PostgresCloudTransaction {
    func accountName(ofUserRecordName userRecordName: String) throws -> String? {
        try run("SELECT name FROM accounts WHERE user_record_name=$1", [.text(userRecordName)]).first?[0].text
    }

    static let shareColumns = "zone_name, title, public_permission, token, created_ms, modified_ms"

    static func shareRow(_ row: PostgresRow) throws -> ShareRow {
        ShareRow(zoneName: try row.text(0), title: try row.text(1),
                 publicPermission: SharePermission(rawValue: try row.text(2)) ?? .none, token: try row.text(3),
                 created: try row.int64(4), modified: try row.int64(5))
    }

    func share(zoneName: String, dbID: Int64) throws -> ShareRow? {
        if zoneFacts.unshared.contains(ZoneFacts.Key(dbID: dbID, zoneName: zoneName)) { return nil }
        return try run("SELECT \(Self.shareColumns) FROM shares WHERE db_id=$1 AND zone_name=$2",
                [.int64(dbID), .text(zoneName)]).rows.first.map(Self.shareRow)
    }

    func shares(dbID: Int64) throws -> [ShareRow] {
        try run("SELECT \(Self.shareColumns) FROM shares WHERE db_id=$1 ORDER BY zone_name", [.int64(dbID)]).rows.map(Self.shareRow)
    }

    func putShare(_ row: ShareRow, dbID: Int64) throws {
        zoneFacts.unshared.removeAll()
        try run("""
            INSERT INTO shares(db_id, zone_name, title, public_permission, token, created_ms, modified_ms)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT(db_id, zone_name) DO UPDATE SET title=excluded.title, public_permission=excluded.public_permission,
                token=excluded.token, created_ms=excluded.created_ms, modified_ms=excluded.modified_ms
            """, [.int64(dbID), .text(row.zoneName), .text(row.title), .text(row.publicPermission.rawValue), .text(row.token),
                  .int64(row.created), .int64(row.modified)])
    }

    func deleteShare(zoneName: String, dbID: Int64) throws {
        zoneFacts.unshared.removeAll()
        try run("DELETE FROM share_participants WHERE db_id=$1 AND zone_name=$2", [.int64(dbID), .text(zoneName)])
        try run("DELETE FROM shares WHERE db_id=$1 AND zone_name=$2", [.int64(dbID), .text(zoneName)])
    }

    func shareParticipants(zoneName: String, dbID: Int64) throws -> [ShareParticipantRow] {
        try run("""
            SELECT participant, permission, accepted FROM share_participants
            WHERE db_id=$1 AND zone_name=$2 ORDER BY participant
            """, [.int64(dbID), .text(zoneName)]).rows.map { row in
            ShareParticipantRow(userRecordName: try row.text(0), permission: SharePermission(rawValue: try row.text(1)) ?? .none,
                                accepted: row[2].bool ?? false)
        }
    }

    func putShareParticipant(_ row: ShareParticipantRow, zoneName: String, dbID: Int64) throws {
        try run("""
            INSERT INTO share_participants(db_id, zone_name, participant, permission, accepted) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT(db_id, zone_name, participant) DO UPDATE SET permission=excluded.permission, accepted=excluded.accepted
            """, [.int64(dbID), .text(zoneName), .text(row.userRecordName), .text(row.permission.rawValue), .bool(row.accepted)])
    }

    func deleteShareParticipant(_ userRecordName: String, zoneName: String, dbID: Int64) throws {
        try run("DELETE FROM share_participants WHERE db_id=$1 AND zone_name=$2 AND participant=$3",
                [.int64(dbID), .text(zoneName), .text(userRecordName)])
    }

    static func sharedZoneRow(_ row: PostgresRow) throws -> SharedZoneRow {
        SharedZoneRow(owner: try row.text(0), zoneName: try row.text(1), live: row[2].bool ?? false, dbSeq: try row.int64(3))
    }

    func sharedZones(dbID: Int64) throws -> [SharedZoneRow] {
        try run("SELECT owner, zone_name, live, db_seq FROM shared_zones WHERE db_id=$1 ORDER BY owner, zone_name",
                [.int64(dbID)]).rows.map(Self.sharedZoneRow)
    }

    func putSharedZone(_ row: SharedZoneRow, dbID: Int64) throws {
        try run("""
            INSERT INTO shared_zones(db_id, owner, zone_name, live, db_seq) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT(db_id, owner, zone_name) DO UPDATE SET live=excluded.live, db_seq=excluded.db_seq
            """, [.int64(dbID), .text(row.owner), .text(row.zoneName), .bool(row.live), .int64(row.dbSeq)])
    }

    func sharedZoneChanges(dbID: Int64, since: Int64, limit: Int) throws -> [SharedZoneRow] {
        try run("""
            SELECT owner, zone_name, live, db_seq FROM shared_zones WHERE db_id=$1 AND db_seq>$2 ORDER BY db_seq LIMIT $3
            """, [.int64(dbID), .int64(since), .int64(Int64(limit))]).rows.map(Self.sharedZoneRow)
    }
}
