import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

/// The credentials of `cloudsync serve` (versions 6, 8 and 10 of the cloud file).
extension SQLiteCloudTransaction {
    static let credentialColumns = "id, account, kind, secret, created_ms, last_used_ms, admin, container, revoked_ms"

    static func credentialRow(_ row: Statement) -> CredentialRow {
        CredentialRow(id: row.string(0), account: row.string(1), kind: CredentialKind(rawValue: row.string(2)) ?? .token,
                      secret: row.string(3), created: row.int64(4), lastUsed: row.isNull(5) ? nil : row.int64(5),
                      isAdmin: row.int64(6) != 0, container: row.isNull(7) ? nil : row.string(7),
                      revoked: row.isNull(8) ? nil : row.int64(8))
    }

    func insertCredential(_ row: CredentialRow) throws {
        try connection.run("INSERT INTO credentials(\(Self.credentialColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           row.id, row.account, row.kind.rawValue, row.secret, row.created, row.lastUsed,
                           Int64(row.isAdmin ? 1 : 0), row.container, row.revoked)
    }

    func credential(id: String) throws -> CredentialRow? {
        try connection.queryOne("SELECT \(Self.credentialColumns) FROM credentials WHERE id=?", [id], Self.credentialRow)
    }

    func credential(secret: String, kind: CredentialKind) throws -> CredentialRow? {
        try connection.queryOne("SELECT \(Self.credentialColumns) FROM credentials WHERE kind=? AND secret=?",
                                [kind.rawValue, secret], Self.credentialRow)
    }

    func allCredentials() throws -> [CredentialRow] {
        try connection.query("SELECT \(Self.credentialColumns) FROM credentials ORDER BY created_ms, id", [], Self.credentialRow)
    }

    func revokeCredential(id: String, at time: Int64) throws -> Bool {
        try connection.run("UPDATE credentials SET revoked_ms=? WHERE id=? AND revoked_ms IS NULL", time, id)
        return connection.changes > 0
    }

    func setCredentialLastUsed(id: String, at time: Int64) throws {
        try connection.run("UPDATE credentials SET last_used_ms=? WHERE id=? AND revoked_ms IS NULL", time, id)
    }

    func containerAdministrators(container: String) throws -> [String] {
        try connection.query("SELECT account FROM container_admins WHERE container=? ORDER BY account", [container]) { $0.string(0) }
    }

    func addContainerAdministrator(_ account: String, container: String, now: Int64) throws -> Bool {
        try connection.run("INSERT OR IGNORE INTO container_admins(container, account, added_ms) VALUES (?, ?, ?)",
                           container, account, now)
        return connection.changes > 0
    }

    func removeContainerAdministrator(_ account: String, container: String) throws -> Bool {
        try connection.run("DELETE FROM container_admins WHERE container=? AND account=?", container, account)
        return connection.changes > 0
    }

    func usage(payer: String) throws -> Int64 {
        try connection.queryOne("SELECT bytes FROM account_usage WHERE payer=?", [payer]) { $0.int64(0) } ?? 0
    }

    func addUsage(_ delta: Int64, payer: String, needTotal: Bool) throws -> Int64? {
        try connection.run("INSERT INTO account_usage(payer, bytes) VALUES (?, ?) ON CONFLICT(payer) DO UPDATE SET bytes = bytes + excluded.bytes",
                           payer, delta)
        return needTotal ? try usage(payer: payer) : nil
    }

    func rememberSignature(_ hash: String, expires: Int64, now: Int64) throws -> Bool {
        try connection.run("DELETE FROM used_signatures WHERE expires_ms < ?", now)
        try connection.run("INSERT OR IGNORE INTO used_signatures(hash, expires_ms) VALUES (?, ?)", hash, expires)
        return connection.changes > 0
    }

    func keptSecret(_ key: String, candidate: String) throws -> String {
        try connection.run("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)", key, candidate)
        return try connection.queryOne("SELECT value FROM meta WHERE key=?", [key]) { $0.string(0) } ?? candidate
    }
}
