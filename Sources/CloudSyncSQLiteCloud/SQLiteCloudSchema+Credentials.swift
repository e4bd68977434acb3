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

extension SQLiteCloudSchema {
    /// Version 8: the administrator role (issue 25): credentials that carry it, the accounts that
    /// administer each container, and the signatures of server-to-server requests already
    /// accepted (until their 5-minute window closes), so a captured request cannot be replayed;
    /// and the bytes each account's data takes (the quota's ledger), counted from what is stored.
    static let version8 = """
    ALTER TABLE credentials ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE credentials ADD COLUMN container TEXT;
    CREATE TABLE container_admins(
        container TEXT NOT NULL,
        account TEXT NOT NULL,
        added_ms INTEGER NOT NULL,
        PRIMARY KEY(container, account)
    ) WITHOUT ROWID;
    CREATE TABLE used_signatures(
        hash TEXT PRIMARY KEY,
        expires_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX used_signatures_by_expiry ON used_signatures(expires_ms);
    CREATE TABLE account_usage(
        payer TEXT PRIMARY KEY,
        bytes INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO account_usage(payer, bytes)
    SELECT payer, SUM(bytes) FROM (
        SELECT d.owner AS payer, length(CAST(r.fields AS BLOB)) AS bytes
          FROM records r JOIN databases d ON d.db_id = r.db_id
         WHERE r.deleted = 0 AND d.scope <> 'public' AND r.fields IS NOT NULL
        UNION ALL
        SELECT r.created_user, length(CAST(r.fields AS BLOB))
          FROM records r JOIN databases d ON d.db_id = r.db_id
         WHERE r.deleted = 0 AND d.scope = 'public' AND r.fields IS NOT NULL
        UNION ALL
        SELECT d.owner, a.size FROM assets a JOIN databases d ON d.db_id = a.db_id
    ) GROUP BY payer;
    """
}

extension SQLiteCloudSchema {
    /// Version 10: a revoked credential is kept with the time it was revoked, so a request that
    /// presents it is told "revoked" rather than "unknown" (issue 26).
    static let version10 = """
    ALTER TABLE credentials ADD COLUMN revoked_ms INTEGER;
    """
}
