import CloudSyncCore
import CloudSyncSQLite

/// The credentials of `cloudsync serve` (version 5 of the cloud file).
extension SQLiteCloudTransaction {
    static let credentialColumns = "id, account, kind, secret, created_ms, last_used_ms"

    static func credentialRow(_ row: Statement) -> CredentialRow {
        CredentialRow(id: row.string(0), account: row.string(1), kind: CredentialKind(rawValue: row.string(2)) ?? .token,
                      secret: row.string(3), created: row.int64(4), lastUsed: row.isNull(5) ? nil : row.int64(5))
    }

    func insertCredential(_ row: CredentialRow) throws {
        try connection.run("INSERT INTO credentials(\(Self.credentialColumns)) VALUES (?, ?, ?, ?, ?, ?)",
                           row.id, row.account, row.kind.rawValue, row.secret, row.created, row.lastUsed)
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

    func deleteCredential(id: String) throws -> Bool {
        try connection.run("DELETE FROM credentials WHERE id=?", id)
        return connection.changes > 0
    }

    func setCredentialLastUsed(id: String, at time: Int64) throws {
        try connection.run("UPDATE credentials SET last_used_ms=? WHERE id=?", time, id)
    }
}
