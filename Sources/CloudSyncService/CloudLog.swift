import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where the cloud reports what it skipped instead of failing a caller, such as a stored
/// subscription that cannot be read: one line per event. The embedded cloud writes to the
/// standard error of the process that runs it; a server would send it to its log.
public enum CloudLog {
    /// Receives each warning line (without a trailing newline).
    public typealias Sink = @Sendable (String) -> Void

    private static let sink = Mutex<Sink>({ line in
        let bytes = Array("cloudsync: cloud: \(line)\n".utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    })

    /// Replaces where warnings go; returns the previous sink.
    @discardableResult
    public static func setSink(_ new: @escaping Sink) -> Sink {
        sink.withLock { current in
            let old = current
            current = new
            return old
        }
    }

    /// Reports one warning.
    public static func warning(_ line: String) {
        let current = sink.withLock { $0 }
        current(line)
    }
}
