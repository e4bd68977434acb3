import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

/// Key-value stores, subscriptions, the device registry and notification queues.
extension SQLiteCloudTransaction {
    // MARK: Key-value stores

    func ensureKeyValueStore(container: String, owner: String) throws -> KeyValueStoreRow {
        if let row = try connection.queryOne("SELECT kv_id, seq FROM kv_stores WHERE container=? AND owner=?",
                                             [container, owner], { KeyValueStoreRow(id: $0.int64(0), seq: $0.int64(1)) }) {
            return row
        }
        try connection.run("INSERT OR IGNORE INTO kv_stores(container, owner, seq) VALUES (?, ?, 0)", container, owner)
        return try connection.queryOne("SELECT kv_id, seq FROM kv_stores WHERE container=? AND owner=?",
                                       [container, owner], { KeyValueStoreRow(id: $0.int64(0), seq: $0.int64(1)) })
            ?? KeyValueStoreRow(id: 0, seq: 0)
    }

    func keyValueSeq(storeID: Int64) throws -> Int64? {
        try connection.scalarInt("SELECT seq FROM kv_stores WHERE kv_id=?", [storeID])
    }

    func putKeyValue(_ key: String, _ value: KeyValue?, storeID: Int64, seq: Int64, now: Int64, deviceID: String) throws {
        try connection.run("""
            INSERT OR REPLACE INTO kv_values(kv_id, key, type, value, deleted, seq, modified_ms, modified_device)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, storeID, key, value?.typeName ?? "", value?.storedText, value == nil, seq, now, deviceID)
    }

    func keyValueUsage(storeID: Int64) throws -> (keys: Int64, bytes: Int64) {
        let count = try connection.scalarInt("SELECT count(*) FROM kv_values WHERE kv_id=? AND deleted=0", [storeID]) ?? 0
        let total = try connection.scalarInt("""
            SELECT coalesce(sum(length(CAST(key AS BLOB)) + CASE type WHEN 'data' THEN length(value) * 3 / 4 ELSE length(CAST(value AS BLOB)) END), 0)
            FROM kv_values WHERE kv_id=? AND deleted=0
            """, [storeID]) ?? 0
        return (count, total)
    }

    func setKeyValueSeq(_ seq: Int64, storeID: Int64) throws {
        try connection.run("UPDATE kv_stores SET seq=? WHERE kv_id=?", seq, storeID)
    }

    func keyValueChanges(storeID: Int64, since: Int64) throws -> [KeyValueItem] {
        try connection.query("""
            SELECT key, type, value, deleted, modified_ms, modified_device FROM kv_values
            WHERE kv_id=? AND seq>? ORDER BY seq
            """, [storeID, since]) { row -> KeyValueItem in
            let value = row.bool(3) ? nil : KeyValue(typeName: row.string(1), storedText: row.string(2))
            return KeyValueItem(key: row.string(0), value: value, modified: row.int64(4), deviceID: row.string(5))
        }
    }

    // MARK: Subscriptions

    /// Columns read for a subscription, in the order `subscriptionRow` expects.
    static let subscriptionColumns = "subscription_id, kind, zone_name, definition, created_ms, modified_ms, owner, record_type"

    func subscriptionRow(_ row: Statement) -> SubscriptionRow {
        SubscriptionRow(owner: row.string(6), id: row.string(0), kind: row.string(1), zoneName: row.optionalString(2),
                        recordType: row.optionalString(7), definition: row.string(3), created: row.int64(4),
                        modified: row.int64(5))
    }

    func subscriptionCreated(_ id: String, owner: String, dbID: Int64) throws -> Int64? {
        try connection.scalarInt("SELECT created_ms FROM subscriptions WHERE db_id=? AND owner=? AND subscription_id=?",
                                 [dbID, owner, id])
    }

    func putSubscription(_ row: SubscriptionRow, dbID: Int64) throws {
        try connection.run("""
            INSERT OR REPLACE INTO subscriptions(db_id, owner, subscription_id, kind, zone_name, record_type,
                definition, created_ms, modified_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, dbID, row.owner, row.id, row.kind, row.zoneName, row.recordType, row.definition, row.created, row.modified)
    }

    func subscriptions(owner: String, dbID: Int64) throws -> [SubscriptionRow] {
        try connection.query("""
            SELECT \(Self.subscriptionColumns) FROM subscriptions
            WHERE db_id=? AND owner=? ORDER BY subscription_id
            """, [dbID, owner]) { subscriptionRow($0) }
    }

    func subscriptionsConcerning(zoneName: String, dbID: Int64) throws -> [SubscriptionRow] {
        try connection.query("""
            SELECT \(Self.subscriptionColumns) FROM subscriptions
            WHERE db_id=? AND (kind='database' OR zone_name=? OR (kind='query' AND zone_name IS NULL))
            ORDER BY owner, subscription_id
            """, [dbID, zoneName]) { subscriptionRow($0) }
    }

    func hasSubscriptionsConcerning(zoneName: String, dbID: Int64) throws -> Bool {
        try connection.query("""
            SELECT 1 FROM subscriptions
            WHERE db_id=? AND (kind='database' OR zone_name=? OR (kind='query' AND zone_name IS NULL)) LIMIT 1
            """, [dbID, zoneName]) { _ in true }.first ?? false
    }

    func deleteSubscription(_ id: String, owner: String, dbID: Int64) throws {
        try connection.run("DELETE FROM subscriptions WHERE db_id=? AND owner=? AND subscription_id=?", dbID, owner, id)
    }

    // MARK: Devices and notification queues

    func registerDevice(_ device: DeviceAddress, now: Int64) throws {
        try NotificationQueue(connection: connection).register(device, now: now)
    }

    func unregisterDevice(_ device: DeviceAddress) throws {
        try NotificationQueue(connection: connection).unregister(device)
    }

    func trimDevices(container: String, owner: String, keeping: Int) throws {
        try NotificationQueue(connection: connection).trim(container: container, owner: owner, keeping: keeping)
    }

    func registeredDevices(container: String, owner: String) throws -> [String] {
        try NotificationQueue(connection: connection).devices(container: container, owner: owner)
    }

    func enqueueNotification(to device: DeviceAddress, payload: String, coalesceKey: String?, now: Int64) throws -> Bool {
        try NotificationQueue(connection: connection).enqueue(to: device, payload: payload, coalesceKey: coalesceKey, now: now)
    }

    func takeNotifications(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)] {
        try NotificationQueue(connection: connection).take(for: device, limit: limit)
    }

    func peekNotifications(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)] {
        try NotificationQueue(connection: connection).peek(for: device, limit: limit)
    }

    func deleteNotification(_ id: Int64, of device: DeviceAddress) throws -> Bool {
        try NotificationQueue(connection: connection).delete(id, of: device)
    }

    /// Touches the wake-up file of each device (inside the writer's transaction: a woken
    /// listener's `BEGIN IMMEDIATE` waits for this commit).
    func wakeListeners(_ devices: Set<DeviceAddress>) {
        guard !devices.isEmpty, !path.isEmpty, path != ":memory:" else { return }
        let wakeUps = NotificationWakeUpFiles(cloudPath: path)
        for device in devices { wakeUps.post(device) }
    }
}
