#if canImport(Glibc)
import Glibc
#endif

/// Runs a child process with posix_spawn and waits for it with wait4, so that the caller
/// gets the child's wall time and its resource usage (peak RSS) — no Foundation.Process.
enum Spawn {
    /// What a finished child reports.
    struct Outcome {
        /// Exit code, or 128 + signal number when a signal ended it.
        var status: Int32
        /// Wall time from just before posix_spawn to wait4's return (process start-up included).
        var seconds: Double
        /// Peak resident set size of the child, in KiB (`ru_maxrss`).
        var maxRSSKiB: Int
        /// CPU time of the child, user + system, in seconds.
        var cpuSeconds: Double
    }

    /// A failure to start or wait for the child.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path` with `arguments`, the environment of this process, stdin read from
    /// `stdinPath` (or inherited) and stdout written to `stdoutPath` (or inherited); stderr is
    /// inherited so the child's progress shows.
    static func run(_ path: String, _ arguments: [String], stdinPath: String? = nil,
                    stdoutPath: String? = nil) throws(Failure) -> Outcome {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdinPath {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, stdinPath, O_RDONLY, 0)
        }
        if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }

        var pid: pid_t = 0
        let start = MonotonicClock.now()
        let rc = argv.withUnsafeBufferPointer { buffer in
            posix_spawn(&pid, path, &actions, nil, UnsafeMutablePointer(mutating: buffer.baseAddress!), environ)
        }
        guard rc == 0 else { throw Failure(description: "cannot run \(path): \(String(cString: strerror(rc)))") }

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { throw Failure(description: "cannot wait for \(path): \(FileIO.errorText())") }
        }
        let seconds = MonotonicClock.now() - start
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        return Outcome(status: code, seconds: seconds, maxRSSKiB: Int(usage.ru_maxrss),
                       cpuSeconds: Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime))
    }

    /// A `timeval` in seconds.
    static func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }

    /// The path of the running executable, for re-running it as a child.
    static func selfExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
