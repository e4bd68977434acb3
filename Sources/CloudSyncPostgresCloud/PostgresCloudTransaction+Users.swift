import CloudSyncService
import CloudSyncPostgres

/// The accounts' profiles (ladder version 6, as the file's version 9).
extension PostgresCloudTransaction {
    func userProfile(account: String) throws -> UserProfileRow? {
        try run("SELECT account, first_name, last_name, discoverable, modified_ms FROM user_profiles WHERE account=$1",
                [.text(account)]).first.map { row throws -> UserProfileRow in
            UserProfileRow(account: try row.text(0), firstName: try row.text(1), lastName: try row.text(2),
                           discoverable: row[3].bool ?? true, modified: try row.int64(4))
        }
    }

    func putUserProfile(_ row: UserProfileRow) throws {
        try run("""
            INSERT INTO user_profiles(account, first_name, last_name, discoverable, modified_ms) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT(account) DO UPDATE SET first_name=excluded.first_name, last_name=excluded.last_name,
            discoverable=excluded.discoverable, modified_ms=excluded.modified_ms
            """, [.text(row.account), .text(row.firstName), .text(row.lastName), .bool(row.discoverable), .int64(row.modified)])
    }
}
