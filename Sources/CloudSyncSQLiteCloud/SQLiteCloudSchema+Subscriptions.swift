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
    ///
    /// Nothing here touches the `records` table or its statements: a cloud without subscriptions
    /// saves as fast as before.
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
    """
}
