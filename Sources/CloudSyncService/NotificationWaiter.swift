#if canImport(Glibc)
import Glibc
#endif

/// How a listener sleeps until notifications may be waiting for its device, without polling
/// the cloud. The embedded cloud wakes listeners through a file per device watched with inotify
/// (`NotificationWakeUpFiles`); PostgreSQL's `PostgresNotificationWaiter` uses LISTEN/NOTIFY.
///
/// Contract: a notification enqueued for the device after the waiter was made makes the
/// current or the next `wait` return promptly. Spurious returns are allowed, so a listener
/// always reads its queue after `wait` returns, and reads it once before the first wait.
public protocol NotificationWaiter: AnyObject {
    /// Sleeps until woken or until `timeout` seconds passed. Returns true when woken (something
    /// may be waiting), false when the time ran out.
    func wait(timeout: Double) -> Bool
    /// How the waiter learns of new notifications, for messages (`inotify`, `polling`).
    var mechanism: String { get }
}

/// The fallback waiter: sleeps and reports a possible notification every `interval` seconds.
public final class PollingNotificationWaiter: NotificationWaiter {
    public let interval: Double
    public var mechanism: String { "polling every \(interval) s" }

    public init(interval: Double = 0.5) {
        self.interval = max(interval, 0.001)
    }

    public func wait(timeout: Double) -> Bool {
        let pause = min(max(timeout, 0), interval)
        NotificationClock.sleep(pause)
        return pause >= interval
    }
}

/// Monotonic time for deadlines and benchmarks (never goes back with the wall clock).
public enum NotificationClock {
    /// Seconds since an arbitrary fixed point.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Sleeps `seconds` (resumed after signals).
    public static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
