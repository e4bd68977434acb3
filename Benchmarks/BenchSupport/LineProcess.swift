#if canImport(Glibc)
import Glibc
#endif

/// A child process (`cloudsync serve`, `cloudsync subscribe listen`) with its stdout on a pipe, read line by line.
public final class LineProcess {
    public let pid: pid_t
    public let stdoutFD: Int32
    private var pending: [UInt8] = []

    public init(executable: String, arguments: [String], environment: [String: String], stderrPath: String) throws {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw BenchFailure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, nil, argv, envp)
        close(pipeFDs[1])
        guard rc == 0 else {
            close(pipeFDs[0])
            throw BenchFailure("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        pid = child
        stdoutFD = pipeFDs[0]
    }

    /// The next line of stdout, or nil if none came within `timeout` seconds or the pipe closed.
    public func readLine(timeout: Double) -> String? {
        let deadline = Clock.now() + timeout
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - Clock.now()
            guard remaining > 0 else { return nil }
            var descriptor = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, remaining * 1000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(stdoutFD, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending += buffer[0..<count]
        }
    }

    /// CPU time the process used so far, in nanoseconds, summed over its threads
    /// (`/proc/<pid>/task/*/schedstat`, first field).
    public func cpuNanoseconds() -> UInt64 {
        var total: UInt64 = 0
        guard let dir = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name.first?.isNumber == true, let text = readText("/proc/\(pid)/task/\(name)/schedstat"),
                  let first = text.split(separator: " ").first, let ns = UInt64(first) else { continue }
            total += ns
        }
        return total
    }

    /// utime + stime from `/proc/<pid>/stat`, in clock ticks.
    public func cpuTicks() -> Int {
        guard let text = readText("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Fields after the command: state is field 3, utime 14, stime 15 (1-based in proc(5)).
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    /// Stops the child with SIGTERM and returns its total CPU time in ms (from wait4's rusage).
    public func stop() -> Double {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        close(stdoutFD)
        func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }

    private func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}

/// A benchmark that could not run, with the reason.
public struct BenchFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Wall-clock seconds and sleeping, for the benchmarks.
public enum Clock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

extension LineProcess {
    /// A field of `/proc/<pid>/status` in KiB (`VmRSS`, `VmHWM`), 0 when unreadable.
    public func statusKiB(_ name: String) -> Int {
        guard let text = readStatus() else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(String(line.dropFirst(name.count + 1).filter(\.isNumber))) ?? 0
        }
        return 0
    }

    private func readStatus() -> String? {
        let fd = open("/proc/\(pid)/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = read(fd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }
}
