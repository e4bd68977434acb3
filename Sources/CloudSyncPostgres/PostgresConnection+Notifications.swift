import CPostgres
#if canImport(Glibc)
import Glibc
#endif

/// A notification received on a channel this connection listens to (`LISTEN`/`NOTIFY`).
public struct PostgresNotification: Sendable, Hashable {
    public var channel: String
    public var payload: String
    /// The server process of the connection that sent it.
    public var senderPID: Int32

    public init(channel: String, payload: String, senderPID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderPID = senderPID
    }
}

extension PostgresConnection {
    /// The longest channel name PostgreSQL keeps (NAMEDATALEN - 1): longer ones it would truncate.
    public static let maximumChannelLength = 63

    /// Starts listening on `channel` (exact, case-sensitive name). Notifications sent inside a
    /// transaction arrive when it commits.
    public func listen(_ channel: String) throws(PostgresError) {
        try execute("LISTEN " + PostgresConnection.quotedChannel(channel))
    }

    /// Stops listening on `channel`.
    public func unlisten(_ channel: String) throws(PostgresError) {
        try execute("UNLISTEN " + PostgresConnection.quotedChannel(channel))
    }

    /// Sends `payload` (at most 8000 bytes, PostgreSQL's limit) to the listeners of `channel`; inside
    /// a transaction it is sent at commit.
    public func notify(_ channel: String, payload: String = "") throws(PostgresError) {
        _ = try PostgresConnection.quotedChannel(channel)
        try queryPrepared("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// The next notification: one already received, or waits up to `timeout` for one. Waiting is
    /// `poll(2)` on the connection's socket (no CPU while idle), then `PQconsumeInput` and
    /// `PQnotifies`. Returns nil when the time is up; `.connectionLost` when the server goes.
    public func waitForNotification(timeout: Duration) throws(PostgresError) -> PostgresNotification? {
        try awaitSent()
        let deadline = PostgresConnection.monotonicNanoseconds() + PostgresConnection.nanoseconds(timeout)
        guard library.consumeInput(handle) != 0 else { throw lostOrFailed(nil) }
        while true {
            if let notification = takeNotification() { return notification }
            let remaining = deadline - PostgresConnection.monotonicNanoseconds()
            if remaining <= 0 { return nil }
            let socket = library.socket(handle)
            guard socket >= 0 else { throw lostOrFailed(nil) }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            // Milliseconds, rounded up so a short wait does not become a busy 0.
            let milliseconds = Int32(clamping: (remaining + 999_999) / 1_000_000)
            let ready = poll(&descriptor, 1, milliseconds)
            notificationWakeups += 1
            if ready < 0 {
                if errno == EINTR { continue }
                throw .connectionLost("poll failed: \(String(cString: strerror(errno)))")
            }
            if ready > 0, library.consumeInput(handle) == 0 { throw lostOrFailed(nil) }
        }
    }

    /// A notification libpq has already read, if any.
    private func takeNotification() -> PostgresNotification? {
        guard let notify = library.notifies(handle) else { return nil }
        defer { library.freeMemory(notify) }
        return PostgresNotification(channel: notify.pointee.relname.map { String(cString: $0) } ?? "",
                                    payload: notify.pointee.extra.map { String(cString: $0) } ?? "",
                                    senderPID: notify.pointee.be_pid)
    }

    /// `channel` as a quoted identifier; refuses names PostgreSQL would truncate or cannot hold.
    static func quotedChannel(_ channel: String) throws(PostgresError) -> String {
        guard !channel.isEmpty, channel.utf8.count <= maximumChannelLength, !channel.utf8.contains(0) else {
            throw .invalidArgument("a channel name must be 1 to \(maximumChannelLength) bytes without NUL")
        }
        var quoted = "\""
        for character in channel {
            quoted += character == "\"" ? "\"\"" : String(character)
        }
        return quoted + "\""
    }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int64.max / 2 : min(Int64.max / 2, whole + attoseconds / 1_000_000_000)
    }
}
