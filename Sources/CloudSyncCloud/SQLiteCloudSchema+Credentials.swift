extension SQLiteCloudSchema {
    /// Version 6: the credentials `cloudsync serve` accepts: token hashes (never tokens) and
    /// server-to-server public keys, each of one account.
    static let version6 = """
    CREATE TABLE credentials(
        id TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        kind TEXT NOT NULL,
        secret TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        last_used_ms INTEGER
    );
    CREATE INDEX credentials_by_secret ON credentials(kind, secret);
    """
}
