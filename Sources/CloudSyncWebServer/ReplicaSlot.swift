import CloudSyncService
import CloudSyncCore
import Synchronization

/// A replica's state in the router: its cloud once open, the highest replay position it reported
/// (a replica's replay only moves forward, so a call needing no more than that needs no look), and
/// after a failure the time before which it is not tried again: 0.25 s, doubling per failure in a
/// row up to 30 s, so a replica that is down is asked about a few times a minute, not per call.
final class ReplicaSlot: Sendable {
    struct State {
        var service: (any CloudService)?
        var replayed: UInt64 = 0
        var retryAt: ContinuousClock.Instant?
        var backoff: Duration = ReplicaSlot.firstBackoff
        var opening = false
        var down = false
    }

    static let firstBackoff: Duration = .milliseconds(250)
    static let longestBackoff: Duration = .seconds(30)

    let replica: ReadReplica
    let state = Mutex(State())
    let log: @Sendable (String) -> Void

    init(_ replica: ReadReplica, log: @escaping @Sendable (String) -> Void) {
        self.replica = replica
        self.log = log
    }

    /// Opens the replica now; false (after one log line) when it cannot be.
    @discardableResult
    func connect() -> Bool {
        do {
            let service = try replica.open()
            state.withLock { state in
                state.service = service
                state.opening = false
            }
            return true
        } catch {
            failed(error, opening: true)
            return false
        }
    }

    /// The replica's cloud when it has replayed at least `position`; nil when it is behind, down
    /// or waiting out a failure. May cost one round trip (the replay position) or an open.
    func lease(atLeast position: UInt64) -> (any CloudService)? {
        enum Step { case skip, open, use(any CloudService, fresh: Bool) }
        let now = ContinuousClock.now
        let step: Step = state.withLock { state in
            if let retryAt = state.retryAt, now < retryAt { return .skip }
            guard let service = state.service else {
                if state.opening { return .skip }
                state.opening = true
                return .open
            }
            return .use(service, fresh: state.replayed >= position)
        }
        switch step {
        case .skip:
            return nil
        case .open:
            guard connect() else { return nil }
            return lease(atLeast: position)
        case .use(let service, fresh: true):
            return service
        case .use(let service, fresh: false):
            do {
                return try replayed(service) >= position ? service : nil
            } catch {
                failed(error)
                return nil
            }
        }
    }

    /// The replay position now, remembered.
    func replayed(_ service: any CloudService) throws(CloudError) -> UInt64 {
        let offset = try replica.replayed(service)
        let wasDown = state.withLock { state in
            state.replayed = max(state.replayed, offset)
            state.backoff = Self.firstBackoff
            defer { state.down = false }
            return state.down
        }
        if wasDown { log("read replica \(replica.name) answers again; reads go to it") }
        return offset
    }

    /// Notes a failure of the replica itself: it is not tried again before the backoff ends.
    func failed(_ error: CloudError, opening: Bool = false) {
        let now = ContinuousClock.now
        let first = state.withLock { state in
            if opening { state.opening = false }
            state.retryAt = now + state.backoff
            state.backoff = min(state.backoff * 2, Self.longestBackoff)
            defer { state.down = true }
            return !state.down
        }
        if first { log("read replica \(replica.name) failed (\(error.reason)); reads go to the primary until it answers") }
    }
}
