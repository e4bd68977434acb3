extension SQLiteCloudSchema {
    /// Version 4: subscriptions and the notification queue (owned by the subscriptions work;
    /// may change freely until it ships).
    static let version4 = """
    CREATE TABLE subscriptions(
        db_id INTEGER NOT NULL,
        subscription_id TEXT NOT NULL,
        definition TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        PRIMARY KEY(db_id, subscription_id)
    ) WITHOUT ROWID;
    """
}
