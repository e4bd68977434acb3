import CloudSyncService
import CloudSyncCore
import Synchronization

/// A replica's state in the router: its cloud once open, the highest replay position it reported
/// (a replica's replay only moves forward, so a call needing no more than that needs no look), and
/// after a failure the time before which it is not tried again: 0.25 s, doubling per failure in a
/// row up to 30 s, so a replica that is down is asked about a few times a minute, not per call.
///
/// A replica whose cloud cannot be opened because it has not replayed the primary's tables yet
/// (it was copied before the first node made them, or a schema upgrade is still on its way) is
/// *behind*, not failing: it answers, and its replay position (`ReadReplica.probe`) is below
/// `tablesAt`, the primary's position when the router started, after the tables were made. That
/// is no warning; the primary answers the reads, and each read asks the replica's position
/// again (one round trip), until it has replayed that far and its cloud is opened.
final class ReplicaSlot: Sendable {
    struct State {
        var service: (any CloudService)?
        var replayed: UInt64 = 0
        var retryAt: ContinuousClock.Instant?
        var backoff: Duration = ReplicaSlot.firstBackoff
        var opening = false
        var down = false
        /// The last open failed because the replica has not replayed the tables yet.
        var lacksTables = false
    }

    static let firstBackoff: Duration = .milliseconds(250)
    static let longestBackoff: Duration = .seconds(30)

    let replica: ReadReplica
    let state = Mutex(State())
    let log: @Sendable (String) -> Void
    /// The primary's WAL position after its tables were made (0: unknown, and every open that
    /// fails is a failure).
    let tablesAt: UInt64

    init(_ replica: ReadReplica, tablesAt: UInt64, log: @escaping @Sendable (String) -> Void) {
        self.replica = replica
        self.tablesAt = tablesAt
        self.log = log
    }

    /// Opens the replica now; false when it cannot be: after one log line when it fails, quietly
    /// when it has not replayed the primary's tables yet.
    @discardableResult
    func connect() -> Bool {
        var tries = 0
        while true {
            tries += 1
            do {
                let service = try replica.open()
                state.withLock { state in
                    state.service = service
                    state.opening = false
                    state.lacksTables = false
                }
                return true
            } catch {
                switch standing(after: error) {
                case .lacksTables:
                    state.withLock { state in
                        state.opening = false
                        state.lacksTables = true
                    }
                    return false
                case .replayedTables where tries == 1:
                    // It may have replayed them between the open and the look: once more.
                    continue
                case .replayedTables, .failing:
                    state.withLock { $0.lacksTables = false }
                    failed(error, opening: true)
                    return false
                }
            }
        }
    }

    /// Where a replica whose open failed stands.
    enum Standing {
        /// It answers, and has not replayed as far as the primary's tables: behind.
        case lacksTables
        /// It answers, and has replayed that far.
        case replayedTables
        /// It cannot be reached or let in, or does not say how far it has replayed.
        case failing
    }

    /// Where the replica stands after an open that failed with `error`: an unreachable or refused
    /// one fails; otherwise its replay position (one round trip) against `tablesAt`.
    func standing(after error: CloudError) -> Standing {
        switch error.code {
        case .serviceUnavailable, .networkUnavailable, .networkFailure, .notAuthenticated, .permissionFailure, .invalidArguments:
            return .failing
        default:
            guard tablesAt > 0, let replayed = try? replica.probe() else { return .failing }
            return replayed < tablesAt ? .lacksTables : .replayedTables
        }
    }

    /// The replica's cloud when it has replayed at least `position`; nil when it is behind, down
    /// or waiting out a failure. May cost one round trip (the replay position) or an open.
    func lease(atLeast position: UInt64) -> (any CloudService)? {
        enum Step { case skip, open, probe, use(any CloudService, fresh: Bool) }
        let now = ContinuousClock.now
        let step: Step = state.withLock { state in
            if let retryAt = state.retryAt, now < retryAt { return .skip }
            guard let service = state.service else {
                if state.opening { return .skip }
                state.opening = true
                return state.lacksTables ? .probe : .open
            }
            return .use(service, fresh: state.replayed >= position)
        }
        switch step {
        case .skip:
            return nil
        case .probe:
            // Without its tables yet: opened once it has replayed them.
            let replayed: UInt64
            do {
                replayed = try replica.probe()
            } catch {
                state.withLock { $0.lacksTables = false }
                failed(error, opening: true)
                return nil
            }
            guard replayed >= tablesAt else {
                state.withLock { $0.opening = false }
                return nil
            }
            guard connect() else { return nil }
            return lease(atLeast: position)
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
