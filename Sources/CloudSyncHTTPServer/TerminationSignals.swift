#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT turned into a graceful stop for a foreground server (`cloudsync serve`).
///
/// Make it first, on the main thread, before any other thread starts: it blocks the signals in the
/// calling thread, and threads started afterwards (libmicrohttpd's) inherit the mask, so the
/// signals stay pending until `wait` takes them with `sigwait` instead of killing the process.
public struct TerminationSignals: Sendable {
    /// The signals waited for.
    public let signals: [Int32]

    /// Blocks `signals` (default SIGTERM and SIGINT) in the calling thread.
    public init(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        self.signals = signals
        var set = Self.set(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until one of the signals arrives; returns its number.
    public func wait() -> Int32 {
        var set = Self.set(signals)
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// Waits for one of the signals, then stops `server` (`HTTPServer.stop(grace:)`: no new
    /// connection, requests in flight finish within `grace`); returns the signal's number.
    @discardableResult
    public func stopOnSignal(_ server: HTTPServer, grace: Duration = .seconds(10)) -> Int32 {
        let signal = wait()
        server.stop(grace: grace)
        return signal
    }

    private static func set(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
