extension SQLiteCloudSchema {
    /// Version 3: the ubiquitous key-value store, one per (container, account), with a change
    /// sequence per store for incremental sync.
    static let version3 = """
    CREATE TABLE kv_stores(
        kv_id INTEGER PRIMARY KEY,
        container TEXT NOT NULL,
        owner TEXT NOT NULL,
        seq INTEGER NOT NULL DEFAULT 0,
        UNIQUE(container, owner)
    );
    CREATE TABLE kv_values(
        kv_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        type TEXT NOT NULL,
        value BLOB,
        deleted INTEGER NOT NULL DEFAULT 0,
        seq INTEGER NOT NULL,
        modified_ms INTEGER NOT NULL,
        modified_device TEXT NOT NULL,
        PRIMARY KEY(kv_id, key)
    ) WITHOUT ROWID;
    CREATE INDEX kv_values_by_seq ON kv_values(kv_id, seq);
    """
}
