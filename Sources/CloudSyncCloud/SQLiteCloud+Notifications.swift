import CloudSyncCore
import CloudSyncSQLite

/// Notifications of the embedded cloud.
///
/// Enqueueing happens inside the transaction of the change (`modifyZone`, `saveZones`,
/// `deleteZones` call in here), so a notification never announces an uncommitted change and no
/// committed change lacks its notification. The wake-up file of each device that got a new row
/// is touched right away, still inside the writer's transaction: a woken listener reads its
/// queue with `BEGIN IMMEDIATE` (`takeNotifications`), which waits for that writer to commit,
/// so it never reads too early.
extension SQLiteCloud {
    // MARK: CloudService

    public func registerDevice(_ device: DeviceAddress) throws(CloudError) {
        try guarded {
            try connection.transaction(.immediate) {
                try NotificationQueue(connection: connection).register(device, now: clock())
            }
        }
    }

    public func unregisterDevice(_ device: DeviceAddress) throws(CloudError) {
        try guarded {
            try connection.transaction(.immediate) {
                try NotificationQueue(connection: connection).unregister(device)
            }
        }
    }

    public func takeNotifications(for device: DeviceAddress, limit: Int) throws(CloudError) -> [CloudNotification] {
        guard limit >= 1, limit <= NotificationLimits.maxPerRead else {
            throw CloudError(.invalidArguments, "read 1 to \(NotificationLimits.maxPerRead) notifications at once, got \(limit)")
        }
        return try guarded {
            // IMMEDIATE: waits for a writer that announced a notification but has not committed yet.
            try connection.transaction(.immediate) {
                try NotificationQueue(connection: connection).take(for: device, limit: limit)
            }
        }
    }

    public func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        do {
            return try InotifyNotificationWaiter(files: NotificationWakeUpFiles(cloudPath: path), device: device)
        } catch {
            return PollingNotificationWaiter(interval: 0.25)
        }
    }

    // MARK: Enqueueing (inside the writing transaction)

    /// A stored subscription and its owner.
    struct ActiveSubscription {
        var owner: String
        var subscription: Subscription
    }

    /// The subscriptions of a database that a change in `zoneName` concerns: database
    /// subscriptions, the zone's subscriptions and query subscriptions of the zone or of every zone.
    ///
    /// A stored subscription that cannot be read back (damaged, or written past validation with
    /// a predicate too deep to evaluate) is skipped and logged (`CloudLog`): one account's
    /// subscription never fails another account's write.
    func activeSubscriptions(dbID: Int64, zoneName: String) throws -> [ActiveSubscription] {
        try connection.query("""
            SELECT \(SQLiteCloud.subscriptionColumns) FROM subscriptions
            WHERE db_id=? AND (kind='database' OR zone_name=? OR (kind='query' AND zone_name IS NULL))
            ORDER BY owner, subscription_id
            """, [dbID, zoneName]) { row in
            try readableSubscription(row).map { ActiveSubscription(owner: row.string(6), subscription: $0) }
        }.compactMap { $0 }
    }

    func deleteSubscription(_ active: ActiveSubscription, dbID: Int64) throws {
        try connection.run("DELETE FROM subscriptions WHERE db_id=? AND owner=? AND subscription_id=?",
                           dbID, active.owner, active.subscription.subscriptionID)
    }

    /// Enqueues the notifications of the records one modify call saved and deleted in one zone.
    /// `modifyZone` calls it inside its transaction once the zone's changes are written.
    func enqueueRecordNotifications(zone: ZoneRow, dbID: Int64, request: DatabaseRequest, saved: [Record],
                                    deleted: [RecordID]) throws {
        let subscriptions = try activeSubscriptions(dbID: dbID, zoneName: zone.name)
        guard !subscriptions.isEmpty else { return }
        let zoneID = request.zoneID(zone.name)
        var events: [RecordEvent] = []
        if subscriptions.contains(where: { $0.subscription.query != nil }) {
            // Query subscriptions need each record's state before this call.
            let names = Set(saved.map(\.recordID.recordName) + deleted.map(\.recordName))
            let images = NotificationRecordImages.load(path: path, dbID: dbID, zoneID: zone.id, zone: zoneID, names: names)
            events = RecordEvent.list(saved: saved, deleted: deleted, images: images)
        }
        var fanOut = NotificationFanOut(connection: connection, request: request, now: clock())
        for active in subscriptions {
            let subscription = active.subscription
            let base = fanOut.notification(for: subscription)
            switch subscription.kind {
            case .database:
                try fanOut.send(base, to: active.owner, coalesceKey: "d:\(dbID):\(subscription.subscriptionID)")
            case .recordZone(let name) where name == zone.name:
                var notification = base
                notification.kind = .recordZone
                notification.zoneID = zoneID
                try fanOut.send(notification, to: active.owner, coalesceKey: "z:\(dbID):\(subscription.subscriptionID)")
            case .recordZone:
                break
            case .query(let query):
                for event in events {
                    guard let reason = event.firing(query) else { continue }
                    var notification = base
                    notification.kind = .query
                    notification.zoneID = zoneID
                    notification.recordID = event.record.recordID
                    notification.recordType = event.record.recordType
                    notification.reason = reason
                    for key in subscription.notificationInfo.desiredKeys {
                        if let value = event.record.queryValue(forKey: key) { notification.recordFields[key] = value }
                    }
                    try fanOut.send(notification, to: active.owner, coalesceKey: nil)
                    if query.firesOnce {
                        try deleteSubscription(active, dbID: dbID)
                        break
                    }
                }
            }
        }
        fanOut.wake()
    }

    /// Enqueues the notifications of a zone created or deleted: database subscriptions fire; on
    /// deletion the zone's own subscriptions fire one last time and are deleted with the zone,
    /// together with the query subscriptions limited to it. `saveZones` and `deleteZones` call
    /// it inside their transaction.
    func enqueueZoneNotifications(zoneName: String, dbID: Int64, request: DatabaseRequest, deleted: Bool) throws {
        let subscriptions = try activeSubscriptions(dbID: dbID, zoneName: zoneName)
        guard !subscriptions.isEmpty else { return }
        var fanOut = NotificationFanOut(connection: connection, request: request, now: clock())
        for active in subscriptions {
            let subscription = active.subscription
            let base = fanOut.notification(for: subscription)
            switch subscription.kind {
            case .database:
                try fanOut.send(base, to: active.owner, coalesceKey: "d:\(dbID):\(subscription.subscriptionID)")
            case .recordZone(let name) where deleted && name == zoneName:
                var notification = base
                notification.kind = .recordZone
                notification.zoneID = request.zoneID(zoneName)
                try fanOut.send(notification, to: active.owner, coalesceKey: "z:\(dbID):\(subscription.subscriptionID)")
                try deleteSubscription(active, dbID: dbID)
            case .query(let query) where deleted && query.zoneName == zoneName:
                try deleteSubscription(active, dbID: dbID)
            default:
                break
            }
        }
        fanOut.wake()
    }

    /// For the key-value store: tells every registered device of the caller's account except
    /// the caller's device that the store changed (one coalescing `keyValue` notification per
    /// device while unread). Call inside the transaction that writes the change.
    func enqueueKeyValueNotifications(for request: DatabaseRequest) throws {
        var fanOut = NotificationFanOut(connection: connection, request: request, now: clock())
        let notification = CloudNotification(notificationID: "", kind: .keyValue, subscriptionID: nil,
                                             containerIdentifier: request.container, databaseScope: nil,
                                             creationDate: fanOut.now)
        try fanOut.send(notification, to: request.userRecordName, coalesceKey: "kv")
        fanOut.wake()
    }
}
