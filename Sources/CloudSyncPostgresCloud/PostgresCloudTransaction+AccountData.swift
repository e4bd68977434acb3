import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

/// Key-value stores, subscriptions, the device registry and notification queues.
extension PostgresCloudTransaction {
    // MARK: Key-value stores

    /// In a write transaction the store's row is locked (`FOR UPDATE`) until commit: writers of
    /// one store serialize and take its sequence in order.
    func ensureKeyValueStore(container: String, owner: String) throws -> KeyValueStoreRow {
        let select = "SELECT kv_id, seq FROM kv_stores WHERE container=$1 AND owner=$2" + (writing ? " FOR UPDATE" : "")
        let key: [PostgresValue] = [.text(container), .text(owner)]
        if let row = try run(select, key).first { return KeyValueStoreRow(id: try row.int64(0), seq: try row.int64(1)) }
        try run("INSERT INTO kv_stores(container, owner, seq) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING", key)
        return try run(select, key).first.map { KeyValueStoreRow(id: try $0.int64(0), seq: try $0.int64(1)) }
            ?? KeyValueStoreRow(id: 0, seq: 0)
    }

    func keyValueSeq(storeID: Int64) throws -> Int64? {
        try run("SELECT seq FROM kv_stores WHERE kv_id=$1", [.int64(storeID)]).first?[0].int64
    }

    func putKeyValue(_ key: String, _ value: KeyValue?, storeID: Int64, seq: Int64, now: Int64, deviceID: String) throws {
        try run("""
            INSERT INTO kv_values(kv_id, key, type, value, deleted, seq, modified_ms, modified_device)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT(kv_id, key) DO UPDATE SET type=excluded.type, value=excluded.value, deleted=excluded.deleted,
                seq=excluded.seq, modified_ms=excluded.modified_ms, modified_device=excluded.modified_device
            """, [.int64(storeID), .text(key), .text(value?.typeName ?? ""), value.map { .text($0.storedText) } ?? .null,
                  .bool(value == nil), .int64(seq), .int64(now), .text(deviceID)])
    }

    func keyValueUsage(storeID: Int64) throws -> (keys: Int64, bytes: Int64) {
        let row = try run("""
            SELECT count(*), coalesce(sum(octet_length(key)
                + CASE type WHEN 'data' THEN length(value) * 3 / 4 ELSE octet_length(value) END), 0)::bigint
            FROM kv_values WHERE kv_id=$1 AND deleted=false
            """, [.int64(storeID)]).first
        return (row?[0].int64 ?? 0, row?[1].int64 ?? 0)
    }

    func setKeyValueSeq(_ seq: Int64, storeID: Int64) throws {
        try run("UPDATE kv_stores SET seq=$1 WHERE kv_id=$2", [.int64(seq), .int64(storeID)])
    }

    func keyValueChanges(storeID: Int64, since: Int64) throws -> [KeyValueItem] {
        try run("""
            SELECT key, type, value, deleted, modified_ms, modified_device FROM kv_values
            WHERE kv_id=$1 AND seq>$2 ORDER BY seq
            """, [.int64(storeID), .int64(since)]).rows.map { row in
            let value = row[3].bool == true ? nil : KeyValue(typeName: try row.text(1), storedText: row[2].text ?? "")
            return KeyValueItem(key: try row.text(0), value: value, modified: try row.int64(4), deviceID: try row.text(5))
        }
    }

    // MARK: Subscriptions

    /// Columns read for a subscription, in the order `subscriptionRow` expects.
    static let subscriptionColumns = "subscription_id, kind, zone_name, definition, created_ms, modified_ms, owner, record_type"

    static func subscriptionRow(_ row: PostgresRow) throws -> SubscriptionRow {
        SubscriptionRow(owner: try row.text(6), id: try row.text(0), kind: try row.text(1), zoneName: row[2].text,
                        recordType: row[7].text, definition: try row.text(3), created: try row.int64(4),
                        modified: try row.int64(5))
    }

    func subscriptionCreated(_ id: String, owner: String, dbID: Int64) throws -> Int64? {
        try run("SELECT created_ms FROM subscriptions WHERE db_id=$1 AND owner=$2 AND subscription_id=$3",
                [.int64(dbID), .text(owner), .text(id)]).first?[0].int64
    }

    func putSubscription(_ row: SubscriptionRow, dbID: Int64) throws {
        zoneFacts.unsubscribed.removeAll()
        try run("""
            INSERT INTO subscriptions(db_id, owner, subscription_id, kind, zone_name, record_type, definition,
                created_ms, modified_ms)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT(db_id, owner, subscription_id) DO UPDATE SET kind=excluded.kind, zone_name=excluded.zone_name,
                record_type=excluded.record_type, definition=excluded.definition, created_ms=excluded.created_ms,
                modified_ms=excluded.modified_ms
            """, [.int64(dbID), .text(row.owner), .text(row.id), .text(row.kind), row.zoneName.map { .text($0) } ?? .null,
                  row.recordType.map { .text($0) } ?? .null, .text(row.definition), .int64(row.created),
                  .int64(row.modified)])
    }

    func subscriptions(owner: String, dbID: Int64) throws -> [SubscriptionRow] {
        try run("""
            SELECT \(Self.subscriptionColumns) FROM subscriptions WHERE db_id=$1 AND owner=$2 ORDER BY subscription_id
            """, [.int64(dbID), .text(owner)]).rows.map(Self.subscriptionRow)
    }

    func subscriptionsConcerning(zoneName: String, dbID: Int64) throws -> [SubscriptionRow] {
        if zoneFacts.unsubscribed.contains(ZoneFacts.Key(dbID: dbID, zoneName: zoneName)) { return [] }
        return try run("""
            SELECT \(Self.subscriptionColumns) FROM subscriptions
            WHERE db_id=$1 AND (kind='database' OR zone_name=$2 OR (kind='query' AND zone_name IS NULL))
            ORDER BY owner, subscription_id
            """, [.int64(dbID), .text(zoneName)]).rows.map(Self.subscriptionRow)
    }

    func hasSubscriptionsConcerning(zoneName: String, dbID: Int64) throws -> Bool {
        if zoneFacts.unsubscribed.contains(ZoneFacts.Key(dbID: dbID, zoneName: zoneName)) { return false }
        return try !run("""
            SELECT 1 FROM subscriptions
            WHERE db_id=$1 AND (kind='database' OR zone_name=$2 OR (kind='query' AND zone_name IS NULL)) LIMIT 1
            """, [.int64(dbID), .text(zoneName)]).rows.isEmpty
    }

    func deleteSubscription(_ id: String, owner: String, dbID: Int64) throws {
        zoneFacts.unsubscribed.removeAll()
        try run("DELETE FROM subscriptions WHERE db_id=$1 AND owner=$2 AND subscription_id=$3",
                [.int64(dbID), .text(owner), .text(id)])
    }

    // MARK: Devices and notification queues

    static func key(_ device: DeviceAddress) -> [PostgresValue] {
        [.text(device.container), .text(device.userRecordName), .text(device.deviceID)]
    }

    func registerDevice(_ device: DeviceAddress, now: Int64) throws {
        try run("""
            INSERT INTO notification_devices(container, owner, device, registered_ms, seen_ms) VALUES ($1, $2, $3, $4, $4)
            ON CONFLICT(container, owner, device) DO UPDATE SET seen_ms = excluded.seen_ms
            """, Self.key(device) + [.int64(now)])
    }

    func unregisterDevice(_ device: DeviceAddress) throws {
        try run("DELETE FROM notification_devices WHERE container=$1 AND owner=$2 AND device=$3", Self.key(device))
        try run("DELETE FROM notifications WHERE container=$1 AND owner=$2 AND device=$3", Self.key(device))
    }

    func trimDevices(container: String, owner: String, keeping: Int) throws {
        let stale = "SELECT device FROM notification_devices WHERE container=$1 AND owner=$2 ORDER BY seen_ms DESC, device OFFSET $3"
        let key: [PostgresValue] = [.text(container), .text(owner), .int64(Int64(keeping))]
        try run("DELETE FROM notifications WHERE container=$1 AND owner=$2 AND device IN (\(stale))", key)
        try run("DELETE FROM notification_devices WHERE container=$1 AND owner=$2 AND device IN (\(stale))", key)
    }

    func registeredDevices(container: String, owner: String) throws -> [String] {
        try run("SELECT device FROM notification_devices WHERE container=$1 AND owner=$2 ORDER BY device",
                [.text(container), .text(owner)]).rows.map { try $0.text(0) }
    }

    func enqueueNotification(to device: DeviceAddress, payload: String, coalesceKey: String?, now: Int64) throws -> Bool {
        try run("""
            INSERT INTO notifications(container, owner, device, coalesce_key, payload, created_ms)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING
            """, Self.key(device) + [coalesceKey.map { .text($0) } ?? .null, .text(payload), .int64(now)]).affectedRows > 0
    }

    /// One statement: the oldest rows, locked, deleted and returned (a concurrent reader of the
    /// same queue waits and gets the rows after them).
    func takeNotifications(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)] {
        try run("""
            DELETE FROM notifications WHERE notification_id IN (
                SELECT notification_id FROM notifications WHERE container=$1 AND owner=$2 AND device=$3
                ORDER BY notification_id LIMIT $4 FOR UPDATE)
            RETURNING notification_id, payload
            """, Self.key(device) + [.int64(Int64(limit))]).rows
            .map { (id: try $0.int64(0), payload: try $0.text(1)) }
            .sorted { $0.id < $1.id }
    }

    func peekNotifications(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)] {
        try run("""
            SELECT notification_id, payload FROM notifications WHERE container=$1 AND owner=$2 AND device=$3
            ORDER BY notification_id LIMIT $4
            """, Self.key(device) + [.int64(Int64(limit))]).rows
            .map { (id: try $0.int64(0), payload: try $0.text(1)) }
    }

    func deleteNotification(_ id: Int64, of device: DeviceAddress) throws -> Bool {
        try run("DELETE FROM notifications WHERE notification_id=$4 AND container=$1 AND owner=$2 AND device=$3",
                Self.key(device) + [.int64(id)]).affectedRows > 0
    }

    /// NOTIFY on each device's channel, inside this transaction: PostgreSQL delivers it at
    /// commit, so a woken listener never reads before the change is visible.
    func wakeListeners(_ devices: Set<DeviceAddress>) {
        for device in devices {
            _ = try? connection.notify(PostgresNotificationChannel.name(for: device, schema: storage.url.schema))
        }
    }
}
