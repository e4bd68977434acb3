import CloudSyncSQLite

/// The tables of the embedded cloud. Every table that holds user data is keyed by database
/// first (`db_id`), and no statement touches two databases, so that a sharded backend can put
/// each database on its own server.
enum SQLiteCloudSchema {
    static let format = "cloudsync-cloud"

    /// The cloud file's ladder: version 1 the records, zones and schema (`ddl`), 2 assets,
    /// 3 the key-value store, 4 subscriptions and notifications, 5 declared schemas, 6 the credentials
    /// of `cloudsync serve`, 7 shares (issue 18), 8 administrators and used signatures (issue 25), 9 user profiles (issue 26),
    /// 10 revoked credentials kept as such (issue 26). New versions go at the end.
    static let migrator = Migrator(format: format, fileKind: "cloud file", steps: [
        Migrator.Step(version: 1, sql: ddl),
        Migrator.Step(version: 2, sql: version2),
        Migrator.Step(version: 3, sql: version3),
        Migrator.Step(version: 4, sql: version4),
        Migrator.Step(version: 5, sql: version5),
        Migrator.Step(version: 6, sql: version6),
        Migrator.Step(version: 7, sql: version7),
        Migrator.Step(version: 8, sql: version8),
        Migrator.Step(version: 9, sql: version9),
        Migrator.Step(version: 10, sql: version10),
    ])

    /// Version 5: the declared schema (.ckdb text) per container key (environment included).
    static let version5 = """
    CREATE TABLE declared_schemas(
        container TEXT PRIMARY KEY,
        text TEXT NOT NULL
    ) WITHOUT ROWID;
    """

    /// The version this build writes.
    static var version: Int64 { migrator.latestVersion }

    /// Version 2: assets, stored by checksum per database.
    static let version2 = """
    CREATE TABLE assets(
        db_id INTEGER NOT NULL,
        checksum TEXT NOT NULL,
        size INTEGER NOT NULL,
        data BLOB NOT NULL,
        created_ms INTEGER NOT NULL,
        PRIMARY KEY(db_id, checksum)
    ) WITHOUT ROWID;
    """

    /// Version 1: the meta table, accounts, databases, zones, records, references and schema.
    static let ddl = """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE accounts(
        name TEXT PRIMARY KEY,
        user_record_name TEXT NOT NULL UNIQUE,
        created_ms INTEGER NOT NULL
    );
    CREATE TABLE databases(
        db_id INTEGER PRIMARY KEY,
        container TEXT NOT NULL,
        scope TEXT NOT NULL,
        owner TEXT NOT NULL,
        seq INTEGER NOT NULL DEFAULT 0,
        UNIQUE(container, scope, owner)
    );
    CREATE TABLE zones(
        zone_id INTEGER PRIMARY KEY,
        db_id INTEGER NOT NULL REFERENCES databases(db_id),
        name TEXT NOT NULL,
        atomic INTEGER NOT NULL,
        seq INTEGER NOT NULL DEFAULT 0,
        floor_seq INTEGER NOT NULL DEFAULT 0,
        db_seq INTEGER NOT NULL,
        record_count INTEGER NOT NULL DEFAULT 0,
        deleted INTEGER NOT NULL DEFAULT 0,
        created_ms INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX zones_live ON zones(db_id, name) WHERE deleted = 0;
    CREATE INDEX zones_by_db_seq ON zones(db_id, db_seq);
    CREATE TABLE records(
        db_id INTEGER NOT NULL,
        zone_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        seq INTEGER NOT NULL,
        change_tag TEXT,
        deleted INTEGER NOT NULL DEFAULT 0,
        fields TEXT,
        has_refs INTEGER NOT NULL DEFAULT 0,
        created_ms INTEGER NOT NULL,
        created_user TEXT NOT NULL,
        created_device TEXT NOT NULL,
        modified_ms INTEGER NOT NULL,
        modified_user TEXT NOT NULL,
        modified_device TEXT NOT NULL,
        PRIMARY KEY(db_id, zone_id, name)
    ) WITHOUT ROWID;
    CREATE INDEX records_by_seq ON records(db_id, zone_id, seq);
    CREATE TABLE refs(
        db_id INTEGER NOT NULL,
        zone_id INTEGER NOT NULL,
        target TEXT NOT NULL,
        source TEXT NOT NULL,
        PRIMARY KEY(db_id, zone_id, target, source)
    ) WITHOUT ROWID;
    CREATE INDEX refs_by_source ON refs(db_id, zone_id, source);
    CREATE TABLE schema_fields(
        container TEXT NOT NULL,
        record_type TEXT NOT NULL,
        field TEXT NOT NULL,
        type TEXT NOT NULL,
        PRIMARY KEY(container, record_type, field)
    ) WITHOUT ROWID;
    """
}
