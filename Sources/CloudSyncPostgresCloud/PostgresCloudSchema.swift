import CloudSyncCore

/// The tables of a PostgreSQL cloud: the same tables as the embedded cloud's file
/// (`SQLiteCloudSchema`), in PostgreSQL types.
///
/// Every table holding user data is keyed by `db_id` first, and no statement touches two
/// databases, so the tables can be distributed by `db_id` (Citus: `databases`, `zones`,
/// `records`, `refs`, `assets` and `subscriptions` distributed on `db_id`; the account tables
/// `accounts`, `schema_fields`, `kv_*`, `notification_*` by container and owner). Names that
/// are sorted use `COLLATE "C"`, so the order is byte order on any server, as in SQLite.
enum PostgresCloudSchema {
    /// The format mark stored in `meta`.
    static let format = "cloudsync-cloud-postgres"

    /// The steps of `PostgresCloudMigrator.ladder` (Core's runner, which the SQLite files use
    /// too): ordered steps of SQL, each bringing the tables from the previous version to its own.
    /// New versions go at the end.
    static let steps: [MigrationStep] = [
        MigrationStep(version: 1, sql: version1),
        MigrationStep(version: 2, sql: version2),
        MigrationStep(version: 3, sql: version3),
        MigrationStep(version: 4, sql: version4),
        MigrationStep(version: 5, sql: version5),
        MigrationStep(version: 6, sql: version6),
        MigrationStep(version: 7, sql: version7),
    ]

    /// Version 7: revoked credentials kept as such (issue 26), as the file's version 10.
    static let version7 = """
    ALTER TABLE credentials ADD COLUMN revoked_ms bigint;
    """

    /// Version 6: the accounts' profiles (issue 26), as the file's version 9.
    static let version6 = """
    CREATE TABLE user_profiles(
        account text COLLATE "C" PRIMARY KEY,
        first_name text NOT NULL,
        last_name text NOT NULL,
        discoverable boolean NOT NULL,
        modified_ms bigint NOT NULL
    );
    """

    /// Version 5: the administrator role and used signatures (issue 25), as the file's version 8.
    static let version5 = """
    ALTER TABLE credentials ADD COLUMN admin boolean NOT NULL DEFAULT false;
    ALTER TABLE credentials ADD COLUMN container text;
    CREATE TABLE container_admins(
        container text COLLATE "C" NOT NULL,
        account text COLLATE "C" NOT NULL,
        added_ms bigint NOT NULL,
        PRIMARY KEY(container, account)
    );
    CREATE TABLE used_signatures(
        hash text COLLATE "C" PRIMARY KEY,
        expires_ms bigint NOT NULL
    );
    CREATE INDEX used_signatures_by_expiry ON used_signatures(expires_ms);
    CREATE TABLE account_usage(
        payer text COLLATE "C" PRIMARY KEY,
        bytes bigint NOT NULL
    );
    INSERT INTO account_usage(payer, bytes)
    SELECT payer, SUM(bytes) FROM (
        SELECT d.owner AS payer, octet_length(r.fields)::bigint AS bytes
          FROM records r JOIN databases d ON d.db_id = r.db_id
         WHERE NOT r.deleted AND d.scope <> 'public' AND r.fields IS NOT NULL
        UNION ALL
        SELECT r.created_user, octet_length(r.fields)::bigint
          FROM records r JOIN databases d ON d.db_id = r.db_id
         WHERE NOT r.deleted AND d.scope = 'public' AND r.fields IS NOT NULL
        UNION ALL
        SELECT d.owner, a.size FROM assets a JOIN databases d ON d.db_id = a.db_id
    ) AS usage GROUP BY payer;
    """

    /// Version 4: zone shares (issue 18), as the file's version 7: `shares` and
    /// `share_participants` in the owner's database, `shared_zones` in each participant's
    /// shared database; keyed by `db_id` first, so they co-locate with the database they belong to.
    static let version4 = """
    CREATE TABLE shares(
        db_id bigint NOT NULL,
        zone_name text COLLATE "C" NOT NULL,
        title text NOT NULL,
        public_permission text NOT NULL,
        token text NOT NULL,
        created_ms bigint NOT NULL,
        modified_ms bigint NOT NULL,
        PRIMARY KEY(db_id, zone_name)
    );
    CREATE TABLE share_participants(
        db_id bigint NOT NULL,
        zone_name text COLLATE "C" NOT NULL,
        participant text COLLATE "C" NOT NULL,
        permission text NOT NULL,
        accepted boolean NOT NULL,
        PRIMARY KEY(db_id, zone_name, participant)
    );
    CREATE TABLE shared_zones(
        db_id bigint NOT NULL,
        owner text COLLATE "C" NOT NULL,
        zone_name text COLLATE "C" NOT NULL,
        live boolean NOT NULL,
        db_seq bigint NOT NULL,
        PRIMARY KEY(db_id, owner, zone_name)
    );
    CREATE INDEX shared_zones_by_seq ON shared_zones(db_id, db_seq);
    """

    /// Version 3: the credentials `cloudsync serve` accepts (token hashes and server-to-server
    /// public keys), as the file's version 6.
    static let version3 = """
    CREATE TABLE credentials(
        id text COLLATE "C" PRIMARY KEY,
        account text NOT NULL,
        kind text NOT NULL,
        secret text NOT NULL,
        created_ms bigint NOT NULL,
        last_used_ms bigint
    );
    CREATE INDEX credentials_by_secret ON credentials(kind, secret);
    """

    /// Version 2: the declared schema (.ckdb text) per container key, as the file's version 5.
    static let version2 = """
    CREATE TABLE declared_schemas(
        container text PRIMARY KEY,
        text text NOT NULL
    );
    """

    /// Version 1: everything the embedded cloud's versions 1 to 4 hold.
    static let version1 = """
    CREATE TABLE meta(key text PRIMARY KEY, value text NOT NULL);
    CREATE TABLE accounts(
        name text COLLATE "C" PRIMARY KEY,
        user_record_name text NOT NULL UNIQUE,
        created_ms bigint NOT NULL
    );
    CREATE TABLE databases(
        db_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        container text NOT NULL,
        scope text NOT NULL,
        owner text NOT NULL,
        seq bigint NOT NULL DEFAULT 0,
        UNIQUE(container, scope, owner)
    );
    CREATE TABLE zones(
        db_id bigint NOT NULL,
        zone_id bigint GENERATED BY DEFAULT AS IDENTITY,
        name text COLLATE "C" NOT NULL,
        atomic boolean NOT NULL,
        seq bigint NOT NULL DEFAULT 0,
        floor_seq bigint NOT NULL DEFAULT 0,
        db_seq bigint NOT NULL,
        record_count bigint NOT NULL DEFAULT 0,
        deleted smallint NOT NULL DEFAULT 0,
        created_ms bigint NOT NULL,
        PRIMARY KEY(db_id, zone_id)
    );
    CREATE UNIQUE INDEX zones_live ON zones(db_id, name) WHERE deleted = 0;
    CREATE INDEX zones_by_db_seq ON zones(db_id, db_seq);
    CREATE TABLE records(
        db_id bigint NOT NULL,
        zone_id bigint NOT NULL,
        name text COLLATE "C" NOT NULL,
        type text NOT NULL,
        seq bigint NOT NULL,
        change_tag text,
        deleted boolean NOT NULL DEFAULT false,
        fields text,
        has_refs boolean NOT NULL DEFAULT false,
        created_ms bigint NOT NULL,
        created_user text NOT NULL,
        created_device text NOT NULL,
        modified_ms bigint NOT NULL,
        modified_user text NOT NULL,
        modified_device text NOT NULL,
        PRIMARY KEY(db_id, zone_id, name)
    );
    CREATE INDEX records_by_seq ON records(db_id, zone_id, seq);
    CREATE TABLE refs(
        db_id bigint NOT NULL,
        zone_id bigint NOT NULL,
        target text COLLATE "C" NOT NULL,
        source text COLLATE "C" NOT NULL,
        PRIMARY KEY(db_id, zone_id, target, source)
    );
    CREATE INDEX refs_by_source ON refs(db_id, zone_id, source);
    CREATE TABLE schema_fields(
        container text NOT NULL,
        record_type text NOT NULL,
        field text COLLATE "C" NOT NULL,
        type text NOT NULL,
        PRIMARY KEY(container, record_type, field)
    );
    CREATE TABLE assets(
        db_id bigint NOT NULL,
        checksum text NOT NULL,
        size bigint NOT NULL,
        data bytea NOT NULL,
        created_ms bigint NOT NULL,
        PRIMARY KEY(db_id, checksum)
    );
    CREATE TABLE kv_stores(
        kv_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        container text NOT NULL,
        owner text NOT NULL,
        seq bigint NOT NULL DEFAULT 0,
        UNIQUE(container, owner)
    );
    CREATE TABLE kv_values(
        kv_id bigint NOT NULL,
        key text COLLATE "C" NOT NULL,
        type text NOT NULL,
        value text,
        deleted boolean NOT NULL DEFAULT false,
        seq bigint NOT NULL,
        modified_ms bigint NOT NULL,
        modified_device text NOT NULL,
        PRIMARY KEY(kv_id, key)
    );
    CREATE INDEX kv_values_by_seq ON kv_values(kv_id, seq);
    CREATE TABLE subscriptions(
        db_id bigint NOT NULL,
        owner text COLLATE "C" NOT NULL,
        subscription_id text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        zone_name text,
        record_type text,
        definition text NOT NULL,
        created_ms bigint NOT NULL,
        modified_ms bigint NOT NULL,
        PRIMARY KEY(db_id, owner, subscription_id)
    );
    CREATE INDEX subscriptions_by_zone ON subscriptions(db_id, zone_name);
    CREATE TABLE notification_devices(
        container text NOT NULL,
        owner text NOT NULL,
        device text COLLATE "C" NOT NULL,
        registered_ms bigint NOT NULL,
        seen_ms bigint NOT NULL,
        PRIMARY KEY(container, owner, device)
    );
    CREATE TABLE notifications(
        notification_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        container text NOT NULL,
        owner text NOT NULL,
        device text NOT NULL,
        coalesce_key text,
        payload text NOT NULL,
        created_ms bigint NOT NULL
    );
    CREATE INDEX notifications_by_device ON notifications(container, owner, device, notification_id);
    CREATE UNIQUE INDEX notifications_coalesced ON notifications(container, owner, device, coalesce_key)
        WHERE coalesce_key IS NOT NULL;
    """
}
