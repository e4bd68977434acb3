import CloudSyncCore

/// Notifications: which subscriptions a change fires, for which devices.
///
/// Zone and key-value notifications are enqueued inside the transaction of the change
/// (`saveZones`, `deleteZones`, the key-value store call in here); record changes put one
/// `PendingRecordChange` on the container's pending queue in theirs, delivered after the commit
/// (`StorageBackedCloud+PendingDelivery`). Either way a notification never announces an uncommitted
/// change and no committed change lacks its notification. The listeners of devices that got a
/// new row are woken through the storage (`wakeListeners`) inside the transaction that queued
/// it: a woken listener reads its queue in a write transaction (`takeNotifications`), which
/// waits for that writer to commit, so it never reads too early.
extension StorageBackedCloud {
    // MARK: CloudService

    public func registerDevice(_ device: DeviceAddress) throws(CloudError) {
        try write { tx in try register(device, tx) }
    }

    /// Registers (or marks seen) `device`, keeping at most `NotificationLimits.maxDevicesPerAccount`
    /// devices of its account in its container: the one seen longest ago goes.
    func register(_ device: DeviceAddress, _ tx: any CloudStorageTransaction) throws {
        try tx.registerDevice(device, now: clock())
        try tx.trimDevices(container: device.container, owner: device.userRecordName, keeping: NotificationLimits.maxDevicesPerAccount)
    }

    public func unregisterDevice(_ device: DeviceAddress) throws(CloudError) {
        try write { tx in try tx.unregisterDevice(device) }
    }

    public func takeNotifications(for device: DeviceAddress, limit: Int) throws(CloudError) -> [CloudNotification] {
        guard limit >= 1, limit <= NotificationLimits.maxPerRead else {
            throw CloudError(.invalidArguments, "read 1 to \(NotificationLimits.maxPerRead) notifications at once, got \(limit)")
        }
        deliverPendingChanges(in: device.container)
        // A write transaction: waits for a writer that announced a notification but has not committed yet.
        let rows = try write { tx in try tx.takeNotifications(for: device, limit: limit) }
        do {
            return try rows.map { id, payload in
                try CloudNotification(json: try JSONValue.parse(payload), notificationID: String(id))
            }
        } catch let error as CloudError {
            throw error
        } catch {
            throw CloudError(.internalError, "a stored notification cannot be read: \(error)")
        }
    }

    public func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        try storage.makeNotificationWaiter(for: device)
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
    ///
    /// In a participant's shared database (`request` of scope shared, with the zone's owner), a
    /// subscription of a zone of another owner with the same name is not concerned.
    func activeSubscriptions(dbID: Int64, zoneName: String, request: DatabaseRequest,
                             _ tx: any CloudStorageTransaction) throws -> [ActiveSubscription] {
        try tx.subscriptionsConcerning(zoneName: zoneName, dbID: dbID).compactMap { row in
            guard let subscription = decodedSubscriptions.subscription(row, dbID: dbID, decode: readableSubscription) else { return nil }
            if request.scope == .shared, let owner = subscription.zoneOwner, owner != request.sharedOwner { return nil }
            return ActiveSubscription(owner: row.owner, subscription: subscription)
        }
    }

    func deleteSubscription(_ active: ActiveSubscription, dbID: Int64, _ tx: any CloudStorageTransaction) throws {
        try tx.deleteSubscription(active.subscription.subscriptionID, owner: active.owner, dbID: dbID)
    }

    /// Queues the notifications of the records one modify call saved and deleted in one zone:
    /// when some subscription concerns the zone, one `PendingRecordChange` (the records as saved
    /// and as they were before) goes on the container's pending queue, in this transaction; the
    /// subscriptions are evaluated and the devices' queues filled after the commit
    /// (`deliverPendingChanges`). `modifyZone` calls it inside its transaction once the zone's
    /// changes are written. `recordsDbID`: the database holding the zone's records when the
    /// subscriptions are of another (a participant's shared database); nil when they are the same.
    func enqueueRecordNotifications(zone: ZoneRow, dbID: Int64, recordsDbID: Int64? = nil, request: DatabaseRequest,
                                    saved: [Record], deleted: [RecordID], _ tx: any CloudStorageTransaction) throws {
        guard try tx.hasSubscriptionsConcerning(zoneName: zone.name, dbID: dbID) else { return }
        let names = Set(saved.map(\.recordID.recordName) + deleted.map(\.recordName))
        let images = tx.recordImagesBeforeTransaction(names, zone: zone, dbID: recordsDbID ?? dbID, zoneID: request.zoneID(zone.name))
        let change = PendingRecordChange(dbID: dbID, zoneName: zone.name, request: request, now: clock(),
                                         events: RecordEvent.list(saved: saved, deleted: deleted, images: images))
        _ = try tx.enqueueNotification(to: PendingRecordChange.queue(request.container), payload: change.payload,
                                       coalesceKey: nil, now: change.now)
        pendingDelivery.changeQueued(in: request.container)
    }

    /// One notification to queue for the devices of a subscription's owner, in its stored form.
    struct PlannedNotification {
        var payload: String
        var owner: String
        var coalesceKey: String?

        init(notification: CloudNotification, owner: String, coalesceKey: String?) {
            self.payload = NotificationFanOut.payload(notification)
            self.owner = owner
            self.coalesceKey = coalesceKey
        }
    }

    /// What a pending change fires: the notifications, and the fire-once query subscriptions
    /// that fired (to delete). Pure: reads nothing, writes nothing.
    func plan(_ change: PendingRecordChange, _ subscriptions: [ActiveSubscription])
        -> (notifications: [PlannedNotification], spent: [ActiveSubscription]) {
        let request = change.request
        let zoneID = request.zoneID(change.zoneName)
        let dbID = change.dbID
        var planned: [PlannedNotification] = []
        var spent: [ActiveSubscription] = []
        for active in subscriptions {
            let subscription = active.subscription
            let base = NotificationFanOut.notification(for: subscription, request: request, now: change.now)
            switch subscription.kind {
            case .database:
                planned.append(PlannedNotification(notification: base, owner: active.owner,
                                                   coalesceKey: "d:\(dbID):\(subscription.subscriptionID)"))
            case .recordZone(let name) where name == change.zoneName:
                var notification = base
                notification.kind = .recordZone
                notification.zoneID = zoneID
                planned.append(PlannedNotification(notification: notification, owner: active.owner,
                                                   coalesceKey: "z:\(dbID):\(subscription.subscriptionID)"))
            case .recordZone:
                break
            case .query(let query):
                for event in change.events {
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
                    planned.append(PlannedNotification(notification: notification, owner: active.owner, coalesceKey: nil))
                    if query.firesOnce {
                        spent.append(active)
                        break
                    }
                }
            }
        }
        return (planned, spent)
    }

    /// Enqueues the notifications of a zone created or deleted: database subscriptions fire; on
    /// deletion the zone's own subscriptions fire one last time and are deleted with the zone,
    /// together with the query subscriptions limited to it. `saveZones` and `deleteZones` call
    /// it inside their transaction.
    func enqueueZoneNotifications(zoneName: String, dbID: Int64, request: DatabaseRequest, deleted: Bool,
                                  _ tx: any CloudStorageTransaction) throws {
        let subscriptions = try activeSubscriptions(dbID: dbID, zoneName: zoneName, request: request, tx)
        guard !subscriptions.isEmpty else { return }
        var fanOut = NotificationFanOut(transaction: tx, request: request, now: clock())
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
                try deleteSubscription(active, dbID: dbID, tx)
            case .query(let query) where deleted && query.zoneName == zoneName:
                try deleteSubscription(active, dbID: dbID, tx)
            default:
                break
            }
        }
        fanOut.wake()
    }

    /// For the key-value store: tells every registered device of the caller's account except
    /// the caller's device that the store changed (one coalescing `keyValue` notification per
    /// device while unread). Call inside the transaction that writes the change.
    func enqueueKeyValueNotifications(for request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws {
        var fanOut = NotificationFanOut(transaction: tx, request: request, now: clock())
        let notification = CloudNotification(notificationID: "", kind: .keyValue, subscriptionID: nil,
                                             containerIdentifier: request.container, databaseScope: nil,
                                             creationDate: fanOut.now)
        try fanOut.send(notification, to: request.userRecordName, coalesceKey: "kv")
        fanOut.wake()
    }
}
