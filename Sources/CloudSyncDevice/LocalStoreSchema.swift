/// The tables of the local store (what Core Data is to the seeds) inside the device file.
enum LocalStoreSchema {
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
