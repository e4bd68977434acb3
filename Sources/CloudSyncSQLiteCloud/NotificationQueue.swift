import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

/// The SQL of the embedded cloud's device registry and notification queues. Every method runs
/// inside the caller's transaction.
struct NotificationQueue {
    let connection: Connection

    /// Registers a device (or notes that it was seen again).
    func register(_ device: DeviceAddress, now: Int64) throws {
        try connection.run("""
            INSERT INTO notification_devices(container, owner, device, registered_ms, seen_ms) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(container, owner, device) DO UPDATE SET seen_ms = excluded.seen_ms
            """, device.container, device.userRecordName, device.deviceID, now, now)
    }

    /// Removes a device's registration and its unread notifications.
    func unregister(_ device: DeviceAddress) throws {
        try connection.run("DELETE FROM notification_devices WHERE container=? AND owner=? AND device=?",
                           device.container, device.userRecordName, device.deviceID)
        try connection.run("DELETE FROM notifications WHERE container=? AND owner=? AND device=?",
                           device.container, device.userRecordName, device.deviceID)
    }

    /// Unregisters all but the `keeping` devices of an account seen most recently.
    func trim(container: String, owner: String, keeping: Int) throws {
        let stale = "SELECT device FROM notification_devices WHERE container=? AND owner=? ORDER BY seen_ms DESC, device LIMIT -1 OFFSET ?"
        try connection.run("DELETE FROM notifications WHERE container=? AND owner=? AND device IN (\(stale))",
                           container, owner, container, owner, Int64(keeping))
        try connection.run("DELETE FROM notification_devices WHERE container=? AND owner=? AND device IN (\(stale))",
                           container, owner, container, owner, Int64(keeping))
    }

    /// The registered devices of an account.
    func devices(container: String, owner: String) throws -> [String] {
        try connection.query("SELECT device FROM notification_devices WHERE container=? AND owner=? ORDER BY device",
                             [container, owner]) { $0.string(0) }
    }

    /// Adds a notification to a device's queue. With a `coalesceKey`, nothing is added while an
    /// unread notification with the same key waits. Returns true when a row was added.
    func enqueue(to device: DeviceAddress, payload: String, coalesceKey: String?, now: Int64) throws -> Bool {
        try connection.run("""
            INSERT OR IGNORE INTO notifications(container, owner, device, coalesce_key, payload, created_ms)
            VALUES (?, ?, ?, ?, ?, ?)
            """, device.container, device.userRecordName, device.deviceID, coalesceKey, payload, now)
        return connection.changes > 0
    }

    /// Reads the oldest `limit` notifications of a device, leaving them queued.
    func peek(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)] {
        try connection.query("""
            SELECT notification_id, payload FROM notifications
            WHERE container=? AND owner=? AND device=? ORDER BY notification_id LIMIT ?
            """, [device.container, device.userRecordName, device.deviceID, Int64(limit)]) { (id: $0.int64(0), payload: $0.string(1)) }
    }

    /// Removes one notification of a device; false when it was not queued.
    func delete(_ id: Int64, of device: DeviceAddress) throws -> Bool {
        try connection.run("DELETE FROM notifications WHERE notification_id=? AND container=? AND owner=? AND device=?",
                           id, device.container, device.userRecordName, device.deviceID)
        return connection.changes > 0
    }

    /// Reads and removes the oldest `limit` notifications of a device.
    func take(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)] {
        let rows = try connection.query("""
            SELECT notification_id, payload FROM notifications
            WHERE container=? AND owner=? AND device=? ORDER BY notification_id LIMIT ?
            """, [device.container, device.userRecordName, device.deviceID, Int64(limit)]) { ($0.int64(0), $0.string(1)) }
        guard let last = rows.last?.0 else { return [] }
        try connection.run("DELETE FROM notifications WHERE container=? AND owner=? AND device=? AND notification_id<=?",
                           device.container, device.userRecordName, device.deviceID, last)
        return rows.map { (id: $0.0, payload: $0.1) }
    }
}
