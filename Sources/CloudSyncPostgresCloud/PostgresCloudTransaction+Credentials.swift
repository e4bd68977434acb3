import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

/// The credentials `cloudsync serve` checks (`credentials`, ladder versions 3, 5 and 7): token hashes and
/// server-to-server public keys, the same rows as the embedded cloud's file keeps.
extension PostgresCloudTransaction {
    static let credentialColumns = "id, account, kind, secret, created_ms, last_used_ms, admin, container, revoked_ms"

    static func credentialRow(_ row: PostgresRow) throws -> CredentialRow {
        CredentialRow(id: try row.text(0), account: try row.text(1), kind: CredentialKind(rawValue: try row.text(2)) ?? .token,
                      secret: try row.text(3), created: try row.int64(4), lastUsed: row[5].int64,
                      isAdmin: row[6].bool ?? false, container: row[7].text, revoked: row[8].int64)
    }

    func insertCredential(_ row: CredentialRow) throws {
        try run("INSERT INTO credentials(\(Self.credentialColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [.text(row.id), .text(row.account), .text(row.kind.rawValue), .text(row.secret), .int64(row.created),
                 row.lastUsed.map { .int64($0) } ?? .null, .bool(row.isAdmin), row.container.map { .text($0) } ?? .null,
                 row.revoked.map { .int64($0) } ?? .null])
    }

    /// A credential's row by its ID ($1).
    static let credentialByIDSQL = "SELECT \(credentialColumns) FROM credentials WHERE id=$1"

    func credential(id: String) throws -> CredentialRow? {
        try run(Self.credentialByIDSQL, [.text(id)]).first.map(Self.credentialRow)
    }

    func credential(secret: String, kind: CredentialKind) throws -> CredentialRow? {
        try run("SELECT \(Self.credentialColumns) FROM credentials WHERE kind=$1 AND secret=$2",
                [.text(kind.rawValue), .text(secret)]).first.map(Self.credentialRow)
    }

    func allCredentials() throws -> [CredentialRow] {
        try run("SELECT \(Self.credentialColumns) FROM credentials ORDER BY created_ms, id").rows.map(Self.credentialRow)
    }

    func revokeCredential(id: String, at time: Int64) throws -> Bool {
        try run("UPDATE credentials SET revoked_ms=$1 WHERE id=$2 AND revoked_ms IS NULL", [.int64(time), .text(id)]).affectedRows > 0
    }

    func setCredentialLastUsed(id: String, at time: Int64) throws {
        try run("UPDATE credentials SET last_used_ms=$1 WHERE id=$2 AND revoked_ms IS NULL", [.int64(time), .text(id)])
    }

    func containerAdministrators(container: String) throws -> [String] {
        try run("SELECT account FROM container_admins WHERE container=$1 ORDER BY account", [.text(container)]).rows
            .map { try $0.text(0) }
    }

    func addContainerAdministrator(_ account: String, container: String, now: Int64) throws -> Bool {
        try run("INSERT INTO container_admins(container, account, added_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                [.text(container), .text(account), .int64(now)]).affectedRows > 0
    }

    func removeContainerAdministrator(_ account: String, container: String) throws -> Bool {
        try run("DELETE FROM container_admins WHERE container=$1 AND account=$2", [.text(container), .text(account)]).affectedRows > 0
    }

    func usage(payer: String) throws -> Int64 {
        try run("SELECT bytes FROM account_usage WHERE payer=$1", [.text(payer)]).first.map { try $0.int64(0) } ?? 0
    }

    /// Without a total to check, the ledger's update rides with the COMMIT (no round trip of its own).
    func addUsage(_ delta: Int64, payer: String, needTotal: Bool) throws -> Int64? {
        let upsert = "INSERT INTO account_usage(payer, bytes) VALUES (%@, %@) ON CONFLICT(payer) DO UPDATE SET bytes = account_usage.bytes + excluded.bytes"
        guard needTotal else {
            try connection.sendWithCommit(upsert.replacingPlaceholders(PostgresConnection.literal(payer), String(delta)))
            return nil
        }
        return try run(upsert.replacingPlaceholders("$1", "$2") + " RETURNING bytes", [.text(payer), .int64(delta)])
            .first.map { try $0.int64(0) } ?? delta
    }

    /// The quota checked by the statement itself, sent ahead: a total over `limit` fails the
    /// statement (a cast of `cloudsync-quota:TOTAL:LIMIT` to bigint, `quotaRefusal`), so its
    /// refusal comes with the transaction's next statement or its COMMIT, and rolls back.
    func addUsage(_ delta: Int64, payer: String, limit: Int64) throws {
        if !batch.isEmpty { try batch.flush(connection) }
        try connection.sendPrepared("""
            INSERT INTO account_usage(payer, bytes)
            VALUES ($1, CASE WHEN $2 <= $3 THEN $2 ELSE ('\(Self.quotaMark)' || $2 || ':' || $3)::bigint END)
            ON CONFLICT(payer) DO UPDATE SET bytes = CASE WHEN account_usage.bytes + excluded.bytes <= $3
                THEN account_usage.bytes + excluded.bytes
                ELSE ('\(Self.quotaMark)' || (account_usage.bytes + excluded.bytes) || ':' || $3)::bigint END
            """, [.text(payer), .int64(delta), .int64(limit)], expectingRows: 1)
    }

    /// What a refused quota check writes before its total and limit.
    static let quotaMark = "cloudsync-quota:"

    /// The quota refusal a failed statement carries (`addUsage(_:payer:limit:)`), if it is one.
    static func quotaRefusal(_ error: PostgresError) -> CloudError? {
        guard case .server(let state, let message) = error, state == "22P02",
              let mark = message.firstRange(of: quotaMark) else { return nil }
        let numbers = message[mark.upperBound...].prefix { $0.isNumber || $0 == ":" || $0 == "-" }.split(separator: ":")
        guard numbers.count == 2, let total = Int64(numbers[0]), let limit = Int64(numbers[1]) else { return nil }
        return CloudError.overQuota(total: total, limit: limit)
    }

    func rememberSignature(_ hash: String, expires: Int64, now: Int64) throws -> Bool {
        try run("DELETE FROM used_signatures WHERE expires_ms < $1", [.int64(now)])
        return try run("INSERT INTO used_signatures(hash, expires_ms) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                       [.text(hash), .int64(expires)]).affectedRows > 0
    }

    func keptSecret(_ key: String, candidate: String) throws -> String {
        try run("INSERT INTO meta(key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.text(key), .text(candidate)])
        return try run("SELECT value FROM meta WHERE key=$1", [.text(key)]).first.map { try $0.text(0) } ?? candidate
    }
}

extension String {
    /// The text with its two `%@` filled in order.
    fileprivate func replacingPlaceholders(_ first: String, _ second: String) -> String {
        let parts = split(separator: "%@", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return self }
        return parts[0] + first + parts[1] + second + parts[2]
    }
}
