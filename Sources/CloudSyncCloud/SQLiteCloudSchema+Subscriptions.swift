extension SQLiteCloudSchema {
    /// Version 4: subscriptions, registered devices and their notification queues.
    ///
    /// - `subscriptions`: per database and owner (the public database holds every user's query
    ///   subscriptions). `zone_name` is the zone of a zone subscription or the zone a query
    ///   subscription is limited to (NULL: every zone); the rest of the definition is JSON.
    /// - `notification_devices`: devices of an account that receive notifications (registered
    ///   when they save a subscription or start listening). Account data, like `accounts`.
    /// - `notifications`: each device's queue, in `notification_id` order (AUTOINCREMENT, so IDs
    ///   only grow). Database, zone and key-value notifications carry a `coalesce_key`: while one
    ///   is unread, the unique index makes further changes add nothing. Reading deletes.
    /// - `notification_images` and its two triggers: when a database has query subscriptions, the
    ///   state of each record *before* a modify call touches it (live or not, and for a deletion
    ///   its fields) is kept for the duration of the call, so that query subscriptions can tell
    ///   creations from updates and evaluate their predicate against a deleted record. The
    ///   enqueueing code empties it in the same transaction.
    static let version4 = """
    CREATE TABLE subscriptions(
        db_id INTEGER NOT NULL,
        owner TEXT NOT NULL,
        subscription_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        zone_name TEXT,
        record_type TEXT,
        definition TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        modified_ms INTEGER NOT NULL,
        PRIMARY KEY(db_id, owner, subscription_id)
    ) WITHOUT ROWID;
    CREATE INDEX subscriptions_by_zone ON subscriptions(db_id, zone_name);
    CREATE INDEX subscriptions_query ON subscriptions(db_id) WHERE kind = 'query';
    CREATE TABLE notification_devices(
        container TEXT NOT NULL,
        owner TEXT NOT NULL,
        device TEXT NOT NULL,
        registered_ms INTEGER NOT NULL,
        seen_ms INTEGER NOT NULL,
        PRIMARY KEY(container, owner, device)
    ) WITHOUT ROWID;
    CREATE TABLE notifications(
        notification_id INTEGER PRIMARY KEY AUTOINCREMENT,
        container TEXT NOT NULL,
        owner TEXT NOT NULL,
        device TEXT NOT NULL,
        coalesce_key TEXT,
        payload TEXT NOT NULL,
        created_ms INTEGER NOT NULL
    );
    CREATE INDEX notifications_by_device ON notifications(container, owner, device, notification_id);
    CREATE UNIQUE INDEX notifications_coalesced ON notifications(container, owner, device, coalesce_key)
        WHERE coalesce_key IS NOT NULL;
    CREATE TABLE notification_images(
        db_id INTEGER NOT NULL,
        zone_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        live INTEGER NOT NULL,
        type TEXT,
        fields TEXT,
        created_ms INTEGER,
        modified_ms INTEGER,
        PRIMARY KEY(db_id, zone_id, name)
    ) WITHOUT ROWID;
    CREATE TRIGGER notification_images_on_save BEFORE INSERT ON records
    WHEN EXISTS (SELECT 1 FROM subscriptions WHERE db_id = NEW.db_id AND kind = 'query')
    BEGIN
        INSERT OR IGNORE INTO notification_images(db_id, zone_id, name, live)
        SELECT NEW.db_id, NEW.zone_id, NEW.name, coalesce(1 - r.deleted, 0)
        FROM (SELECT 1) LEFT JOIN records AS r
            ON r.db_id = NEW.db_id AND r.zone_id = NEW.zone_id AND r.name = NEW.name;
    END;
    CREATE TRIGGER notification_images_on_delete BEFORE UPDATE OF deleted ON records
    WHEN OLD.deleted = 0 AND NEW.deleted = 1
        AND EXISTS (SELECT 1 FROM subscriptions WHERE db_id = NEW.db_id AND kind = 'query')
    BEGIN
        INSERT OR IGNORE INTO notification_images(db_id, zone_id, name, live, type, fields, created_ms, modified_ms)
        VALUES (OLD.db_id, OLD.zone_id, OLD.name, 1, OLD.type, OLD.fields, OLD.created_ms, OLD.modified_ms);
    END;
    """
}
