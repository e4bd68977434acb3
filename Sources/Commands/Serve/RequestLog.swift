import CloudSyncCLI
import CloudSyncSession
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where `cloudsync serve` writes one line per request: stderr or a file opened for append.
/// Lines from concurrent requests never interleave (one `write` each, under a lock). A new log
/// file is created 0600, like every other state file (it names accounts and peers); an existing
/// one keeps its mode.
final class RequestLog: Sendable {
    let fd: Int32
    let lock = Mutex(())

    init(path: String) throws {
        if path == "-" {
            fd = STDERR_FILENO
            return
        }
        let opened = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else {
            throw CLIError.failed("cannot open the log \(path): \(String(cString: strerror(errno)))")
        }
        fd = opened
    }

    func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    offset += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
