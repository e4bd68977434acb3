import Synchronization

/// How many connections a cloud on a database server (PostgreSQL) may hold in this process, and
/// how long a caller waits for one when all are busy (issue 28). A command needs one; `serve`
/// sets its `--db-connections` here before it opens its cloud. Read when a store is first opened
/// in the process.
public enum StoreConnections {
    private static let settings = Mutex((limit: 1, maxWait: 2.0))

    /// Connections per store (at least 1).
    public static var limit: Int {
        get { settings.withLock { $0.limit } }
        set { settings.withLock { $0.limit = max(1, newValue) } }
    }

    /// Seconds a caller waits for a connection before `serviceUnavailable` with `retryAfter`.
    public static var maxWait: Double {
        get { settings.withLock { $0.maxWait } }
        set { settings.withLock { $0.maxWait = max(0, newValue) } }
    }
}
