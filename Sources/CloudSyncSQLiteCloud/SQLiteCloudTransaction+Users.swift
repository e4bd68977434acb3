import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

/// The accounts' profiles (version 9 of the cloud file).
extension SQLiteCloudTransaction {
    func userProfile(account: String) throws -> UserProfileRow? {
        try connection.queryOne("SELECT account, first_name, last_name, discoverable, modified_ms FROM user_profiles WHERE account=?",
                                [account]) {
            UserProfileRow(account: $0.string(0), firstName: $0.string(1), lastName: $0.string(2), discoverable: $0.int64(3) != 0,
                           modified: $0.int64(4))
        }
    }

    func putUserProfile(_ row: UserProfileRow) throws {
        try connection.run("""
            INSERT INTO user_profiles(account, first_name, last_name, discoverable, modified_ms) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(account) DO UPDATE SET first_name=excluded.first_name, last_name=excluded.last_name,
            discoverable=excluded.discoverable, modified_ms=excluded.modified_ms
            """, row.account, row.firstName, row.lastName, Int64(row.discoverable ? 1 : 0), row.modified)
    }
}
