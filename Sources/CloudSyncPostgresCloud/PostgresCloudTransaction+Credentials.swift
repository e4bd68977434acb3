import CloudSyncCloud
import CloudSyncPostgres

/// The credentials `cloudsync serve` checks (`credentials`, ladder version 3): token hashes and
/// server-to-server public keys, the same rows as the embedded cloud's file keeps.
extension PostgresCloudTransaction {
    static let credentialColumns = "id, account, kind, secret, created_ms, last_used_ms"

    static func credentialRow(_ row: PostgresRow) throws -> CredentialRow {
        CredentialRow(id: try row.text(0), account: try row.text(1), kind: CredentialKind(rawValue: try row.text(2)) ?? .token,
                      secret: try row.text(3), created: try row.int64(4), lastUsed: row[5].int64)
    }

    func insertCredential(_ row: CredentialRow) throws {
        try run("INSERT INTO credentials(\(Self.credentialColumns)) VALUES ($1, $2, $3, $4, $5, $6)",
                [.text(row.id), .text(row.account), .text(row.kind.rawValue), .text(row.secret), .int64(row.created),
                 row.lastUsed.map { .int64($0) } ?? .null])
    }

    func credential(id: String) throws -> CredentialRow? {
        try run("SELECT \(Self.credentialColumns) FROM credentials WHERE id=$1", [.text(id)]).first.map(Self.credentialRow)
    }

    func credential(secret: String, kind: CredentialKind) throws -> CredentialRow? {
        try run("SELECT \(Self.credentialColumns) FROM credentials WHERE kind=$1 AND secret=$2",
                [.text(kind.rawValue), .text(secret)]).first.map(Self.credentialRow)
    }

    func allCredentials() throws -> [CredentialRow] {
        try run("SELECT \(Self.credentialColumns) FROM credentials ORDER BY created_ms, id").rows.map(Self.credentialRow)
    }

    func deleteCredential(id: String) throws -> Bool {
        try run("DELETE FROM credentials WHERE id=$1", [.text(id)]).affectedRows > 0
    }

    func setCredentialLastUsed(id: String, at time: Int64) throws {
        try run("UPDATE credentials SET last_used_ms=$1 WHERE id=$2", [.int64(time), .text(id)])
    }
}
