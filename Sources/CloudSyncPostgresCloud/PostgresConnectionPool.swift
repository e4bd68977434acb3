import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres
#if canImport(Glibc)
import Glibc
#endif

/// The connections of one storage in this process (issue 28): at most `capacity` at once, made
/// on demand and kept for the next caller. A caller that finds them all busy waits at most
/// `maxWait` seconds, then gets `serviceUnavailable` with `retryAfter` (over HTTP 503
/// `TRY_AGAIN_LATER`), so a burst queues briefly instead of piling up. Transactions on different
/// connections run in parallel; writers of one database still serialize in PostgreSQL itself, on
/// the `databases` row lock (see `PostgresCloudStorage`). LISTEN/NOTIFY waiters have their own
/// connections, outside the pool.
final class PostgresConnectionPool: @unchecked Sendable {
    let capacity: Int
    let maxWait: Double
    private let url: PostgresURL
    /// Free slots: `capacity` at first; a lease takes one, its return gives it back.
    private let slots = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Connections not leased (guarded by `mutex`).
    private var idle: [PostgresConnection] = []
    /// Every connection open, leased or not (guarded by `mutex`), for `roundTrips`.
    private var open: [ObjectIdentifier: PostgresConnection] = [:]

    init(url: PostgresURL, capacity: Int, maxWait: Double, first: PostgresConnection) {
        self.url = url
        self.capacity = max(1, capacity)
        self.maxWait = max(0, maxWait)
        sem_init(slots, 0, UInt32(self.capacity))
        pthread_mutex_init(mutex, nil)
        idle = [first]
        open[ObjectIdentifier(first)] = first
    }

    deinit {
        sem_destroy(slots)
        pthread_mutex_destroy(mutex)
        slots.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on a leased connection (an idle one, or a new one when none is idle). A
    /// connection whose use lost it is closed, not kept.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try acquireSlot()
        defer { sem_post(slots) }
        let connection = try takeIdle() ?? made()
        var keep = true
        defer { give(back: connection, keep: keep) }
        do {
            return try body(connection)
        } catch let error as PostgresError {
            if case .connectionLost = error { keep = false }
            throw error
        }
    }

    /// Statements sent over every open connection.
    var roundTrips: Int {
        locked { open.values.reduce(0) { $0 + $1.roundTrips } }
    }

    private func acquireSlot() throws(CloudError) {
        if sem_trywait(slots) == 0 { return }
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(maxWait * 1e9) + deadline.tv_nsec
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while sem_timedwait(slots, &deadline) != 0 {
            guard errno == EINTR else {
                let retry = 1
                throw CloudError(.serviceUnavailable,
                                 "all \(capacity) connections to the PostgreSQL cloud stayed busy for \(maxWait) s; retry after \(retry) s",
                                 retryAfter: Double(retry))
            }
        }
    }

    private func takeIdle() -> PostgresConnection? {
        locked { idle.popLast() }
    }

    private func made() throws -> PostgresConnection {
        let connection = try PostgresCloudStorage.connect(url)
        locked { open[ObjectIdentifier(connection)] = connection }
        return connection
    }

    private func give(back connection: PostgresConnection, keep: Bool) {
        locked {
            if keep {
                idle.append(connection)
            } else {
                open[ObjectIdentifier(connection)] = nil
            }
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
