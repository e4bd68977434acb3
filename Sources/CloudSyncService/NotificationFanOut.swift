import CloudSyncCore

/// Delivers the notifications of one change to the registered devices of each subscription
/// owner, skipping the device that made the change, and remembers which devices got a new row so
/// their listeners can be woken.
struct NotificationFanOut {
    let transaction: any CloudStorageTransaction
    let request: DatabaseRequest
    let now: Int64
    private var devicesByOwner: [String: [String]] = [:]
    private var woken: Set<DeviceAddress> = []

    init(transaction: any CloudStorageTransaction, request: DatabaseRequest, now: Int64) {
        self.transaction = transaction
        self.request = request
        self.now = now
    }

    /// The notification a subscription sends, before the details of its kind.
    func notification(for subscription: Subscription) -> CloudNotification {
        Self.notification(for: subscription, request: request, now: now)
    }

    /// The notification a subscription sends for a change of `request` at `now`, before the
    /// details of its kind.
    static func notification(for subscription: Subscription, request: DatabaseRequest, now: Int64) -> CloudNotification {
        CloudNotification(notificationID: "", kind: .database, subscriptionID: subscription.subscriptionID,
                          containerIdentifier: request.container, databaseScope: request.scope,
                          alertBody: subscription.notificationInfo.alertBody, creationDate: now)
    }

    /// Enqueues `notification` for every registered device of `owner` but the one that made the change.
    mutating func send(_ notification: CloudNotification, to owner: String, coalesceKey: String?) throws {
        guard try !devices(of: owner).isEmpty else { return }
        try send(payload: NotificationFanOut.payload(notification), to: owner, coalesceKey: coalesceKey)
    }

    /// Enqueues a notification in its stored form (`payload(_:)`) as `send` does.
    mutating func send(payload: String, to owner: String, coalesceKey: String?) throws {
        for device in try devices(of: owner) {
            let address = DeviceAddress(container: request.container, userRecordName: owner, deviceID: device)
            if try transaction.enqueueNotification(to: address, payload: payload, coalesceKey: coalesceKey, now: now) {
                woken.insert(address)
            }
        }
    }

    /// The registered devices of `owner`, less the one that made the change (read once).
    private mutating func devices(of owner: String) throws -> [String] {
        if let known = devicesByOwner[owner] { return known }
        let devices = try transaction.registeredDevices(container: request.container, owner: owner)
            .filter { owner != request.userRecordName || $0 != request.deviceID }
        devicesByOwner[owner] = devices
        return devices
    }

    /// Wakes the listeners of every device that got a new notification.
    func wake() {
        guard !woken.isEmpty else { return }
        transaction.wakeListeners(woken)
    }

    /// The stored form of a notification: its JSON without the ID (the queue row's key).
    static func payload(_ notification: CloudNotification) -> String {
        guard case .object(let pairs) = notification.json else { return "{}" }
        return JSONValue.object(pairs.filter { $0.0 != "notificationID" }).serialized()
    }
}

/// One record change of a modify call, as query subscriptions see it.
struct RecordEvent {
    /// The record as saved, or as it was before its deletion.
    var record: Record
    /// True for a deletion.
    var deleted: Bool
    /// For a save: the record had a live version before the call.
    var existedBefore: Bool

    /// The reason a query subscription fires for this change, or nil when it does not.
    func firing(_ query: QuerySubscription) -> CloudNotification.QueryReason? {
        guard record.recordType == query.recordType else { return nil }
        let reason: CloudNotification.QueryReason
        let option: QueryFiresOn
        if deleted {
            (reason, option) = (.recordDeleted, .delete)
        } else if existedBefore {
            (reason, option) = (.recordUpdated, .update)
        } else {
            (reason, option) = (.recordCreated, .create)
        }
        guard query.firesOn.contains(option), query.predicate.evaluate(record) else { return nil }
        return reason
    }

    /// The changes of a call in commit order: saves, then deletions. A record saved and then
    /// deleted in the same call (by a DELETE_SELF cascade) counts as deleted only; one that did
    /// not exist before the call counts as nothing. Without images (the previous state could not
    /// be read), a save whose created and modified stamps are equal counts as a creation and a
    /// deletion is judged by the version saved in the same call, if any.
    static func list(saved: [Record], deleted: [RecordID], images: [String: NotificationRecordImage]?) -> [RecordEvent] {
        let deletedNames = Set(deleted.map(\.recordName))
        var savedByName: [String: Record] = [:]
        var events: [RecordEvent] = []
        for record in saved {
            let name = record.recordID.recordName
            savedByName[name] = record
            guard !deletedNames.contains(name) else { continue }
            let existed: Bool
            if let image = images?[name] {
                existed = image.live
            } else if let system = record.system {
                existed = system.created != system.modified
            } else {
                existed = false
            }
            events.append(RecordEvent(record: record, deleted: false, existedBefore: existed))
        }
        for id in deleted {
            let image = images?[id.recordName]
            if image?.live == false { continue }
            guard var before = image?.record ?? savedByName[id.recordName] else { continue }
            before.recordID = id
            events.append(RecordEvent(record: before, deleted: true, existedBefore: true))
        }
        return events
    }
}
