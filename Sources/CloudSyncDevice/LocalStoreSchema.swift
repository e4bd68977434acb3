/// The tables of the device file, one SQL text per format version (`DeviceStore.migrator`):
/// the cache of server records, then the local store (what Core Data is to the seeds).
enum LocalStoreSchema {
    /// Version 1: the meta table, change tokens and the cache of server records.
    static let version1 = """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE database_tokens(
            container TEXT NOT NULL, scope TEXT NOT NULL, token TEXT NOT NULL, updated_ms INTEGER NOT NULL,
            PRIMARY KEY(container, scope));
        CREATE TABLE zone_tokens(
            container TEXT NOT NULL, scope TEXT NOT NULL, zone_name TEXT NOT NULL, owner TEXT NOT NULL,
            token TEXT NOT NULL, updated_ms INTEGER NOT NULL,
            PRIMARY KEY(container, scope, zone_name, owner));
        CREATE TABLE cached_records(
            container TEXT NOT NULL, scope TEXT NOT NULL, zone_name TEXT NOT NULL, owner TEXT NOT NULL,
            record_name TEXT NOT NULL, record_type TEXT NOT NULL, change_tag TEXT NOT NULL,
            fields TEXT NOT NULL,
            created_ms INTEGER NOT NULL, created_user TEXT NOT NULL, created_device TEXT NOT NULL,
            modified_ms INTEGER NOT NULL, modified_user TEXT NOT NULL, modified_device TEXT NOT NULL,
            PRIMARY KEY(container, scope, zone_name, owner, record_name)) WITHOUT ROWID;
        """

    /// Version 2: the app's own records, persistent history, pending changes, sync state and
    /// the conflict log.
    static let version2 = """
        CREATE TABLE local_records(
            container TEXT NOT NULL, zone_name TEXT NOT NULL, record_name TEXT NOT NULL,
            record_type TEXT NOT NULL, fields TEXT NOT NULL, modified_ms INTEGER NOT NULL,
            PRIMARY KEY(container, zone_name, record_name)) WITHOUT ROWID;
        CREATE INDEX local_records_by_type ON local_records(container, record_type);
        CREATE TABLE history(
            txn_id INTEGER PRIMARY KEY AUTOINCREMENT, container TEXT NOT NULL, time_ms INTEGER NOT NULL,
            device TEXT NOT NULL, author TEXT NOT NULL);
        CREATE TABLE history_changes(
            txn_id INTEGER NOT NULL REFERENCES history(txn_id), zone_name TEXT NOT NULL,
            record_name TEXT NOT NULL, record_type TEXT NOT NULL, kind TEXT NOT NULL, changed_keys TEXT NOT NULL);
        CREATE INDEX history_changes_by_txn ON history_changes(txn_id);
        CREATE TABLE pending(
            container TEXT NOT NULL, zone_name TEXT NOT NULL, record_name TEXT NOT NULL,
            txn_id INTEGER NOT NULL,
            PRIMARY KEY(container, zone_name, record_name)) WITHOUT ROWID;
        CREATE INDEX pending_by_txn ON pending(container, txn_id);
        CREATE TABLE sync_state(
            container TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
            PRIMARY KEY(container, key)) WITHOUT ROWID;
        CREATE TABLE conflicts(
            id INTEGER PRIMARY KEY AUTOINCREMENT, container TEXT NOT NULL, time_ms INTEGER NOT NULL,
            zone_name TEXT NOT NULL, record_name TEXT NOT NULL, policy TEXT NOT NULL, resolution TEXT NOT NULL,
            detail TEXT NOT NULL, resolved INTEGER NOT NULL);
        """

    /// Version 3: the device's copy of the account's key-value store; `pending` marks writes
    /// not yet in the cloud.
    static let version3 = """
        CREATE TABLE kv_local(
            container TEXT NOT NULL, key TEXT NOT NULL, type TEXT NOT NULL, value TEXT,
            deleted INTEGER NOT NULL DEFAULT 0, pending INTEGER NOT NULL DEFAULT 0, modified_ms INTEGER NOT NULL,
            PRIMARY KEY(container, key)) WITHOUT ROWID;
        """
}
