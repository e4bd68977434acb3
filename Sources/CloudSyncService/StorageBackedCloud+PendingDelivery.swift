import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Delivering pending record changes (`PendingRecordChange`) to the devices' queues.
///
/// Three short steps, none of which evaluates a subscription inside a transaction: a read
/// transaction takes up to 32 pending changes and the subscriptions each concerns; the
/// subscriptions are evaluated and the notifications encoded with no transaction open; a write
/// transaction removes each change from the pending queue and, when it was still there (no other
/// process delivered it meanwhile), queues its notifications and wakes their devices. A failure
/// leaves the changes pending for the next delivery: after the next write of this process, or
/// before any device's queue is read (`takeNotifications`).
extension StorageBackedCloud {
    /// Changes read from the pending queue at once.
    static let pendingBatch = 32
    /// How long the background thread lets changes gather before it delivers them.
    static let gatherNanoseconds = 5_000_000

    private func sleepNanoseconds(_ nanoseconds: Int) {
        var request = timespec(tv_sec: 0, tv_nsec: nanoseconds)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Delivers every pending record change of `container` (logging, not throwing, a failure).
    func deliverPendingChanges(in container: String) {
        let queue = PendingRecordChange.queue(container)
        do {
            while true {
                let pending = try storage.read { tx in
                    try tx.peekNotifications(for: queue, limit: Self.pendingBatch).map { row in
                        let change = try? PendingRecordChange(payload: row.payload)
                        let subscriptions = try change.map {
                            try activeSubscriptions(dbID: $0.dbID, zoneName: $0.zoneName, request: $0.request, tx)
                        } ?? []
                        return (id: row.id, change: change, subscriptions: subscriptions)
                    }
                }
                if pending.isEmpty { return }
                let planned = pending.map { item in
                    (id: item.id, change: item.change, plan: item.change.map { plan($0, item.subscriptions) })
                }
                try storage.write { tx in
                    for item in planned {
                        guard try tx.deleteNotification(item.id, of: queue) else { continue }
                        guard let change = item.change, let plan = item.plan else {
                            CloudLog.warning("a pending record change of \(container) could not be read; its notifications are lost")
                            continue
                        }
                        var fanOut = NotificationFanOut(transaction: tx, request: change.request, now: change.now)
                        for notification in plan.notifications {
                            try fanOut.send(payload: notification.payload, to: notification.owner, coalesceKey: notification.coalesceKey)
                        }
                        for active in plan.spent { try deleteSubscription(active, dbID: change.dbID, tx) }
                        fanOut.wake()
                    }
                }
                if pending.count < Self.pendingBatch { return }
            }
        } catch {
            CloudLog.warning("notifications of changes in \(container) wait to be delivered: \(error)")
        }
    }

    /// After a write of this process: delivers the changes it queued, now or in the background
    /// (see `PendingDeliveryMode`).
    func deliverAfterWrite() {
        guard let run = pendingDelivery.takeWork() else { return }
        switch run {
        case .now(let containers):
            for container in containers { deliverPendingChanges(in: container) }
        case .startWorker:
            let started = startDetachedThread { [self] in
                // Below the threads that answer requests: delivery waits, a writer's client does not.
                lowerThisThreadsPriority()
                while true {
                    // A few milliseconds to gather the changes of a burst into one delivery.
                    sleepNanoseconds(Self.gatherNanoseconds)
                    guard let containers = pendingDelivery.nextForWorker() else { break }
                    for container in containers { deliverPendingChanges(in: container) }
                }
            }
            if !started {
                // No thread: deliver here rather than not at all.
                while let containers = pendingDelivery.nextForWorker() {
                    for container in containers { deliverPendingChanges(in: container) }
                }
            }
        }
    }

    /// Gives the calling thread a nice value of 10: on Linux the nice value is per thread, and
    /// `setpriority(PRIO_PROCESS, 0, …)` changes the calling thread's only.
    private func lowerThisThreadsPriority() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    }

    /// How this process delivers the record changes it writes: `.afterCommit` (the default, on the
    /// writer's thread) or `.background` (on a thread of its own, so the writer's caller is
    /// answered first: `cloudsync serve`).
    public func setPendingDeliveryMode(_ mode: PendingDeliveryMode) {
        pendingDelivery.setMode(mode)
    }
}
