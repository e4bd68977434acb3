#if canImport(Glibc)
import BenchSupport
import Glibc
#endif

/// One run of a command as a user runs it (`cloudsync … fetch-changes`): wall time from spawn to
/// exit and the command's own peak RSS. Stdout goes to `stdoutPath`, stderr to `stderrPath`; a
/// non-zero exit is a failure.
///
/// The peak is not taken from this process's wait4: `posix_spawn` starts the child on this
/// process's memory (vfork), and Linux folds the memory a process had before `execve` into its
/// `ru_maxrss`, so a child spawned from this bench (which holds 100k records) would report the
/// bench's own peak (that is how 79 MB for SQLite and 144 MB for PostgreSQL were once reported
/// for a command that peaks near 30 MB). Instead the bench runs itself as a small trampoline
/// (`--run-measured`, a fresh process of a few MB) that spawns the command and reports its
/// wait4 time and peak.
struct TimedCommand {
    var seconds: Double
    var peakKiB: Int

    init(_ executable: String, _ arguments: [String], environment: [String: String],
         stdoutPath: String = "/dev/null", stderrPath: String) throws {
        let report = stderrPath + ".measured"
        let trampoline = selfFolder() + "/" + selfName()
        var status: Int32 = 0
        _ = try Self.spawnAndWait(trampoline, ["--run-measured", report, executable] + arguments, environment: environment,
                                  stdoutPath: stdoutPath, stderrPath: stderrPath, status: &status)
        guard status == 0 else {
            throw BenchFailure("\(([executable] + arguments).joined(separator: " ")) failed (wait status \(status)); see \(stderrPath)")
        }
        let fields = String(decoding: try readFile(report), as: UTF8.self).split(separator: " ")
        guard fields.count == 2, let seconds = Double(fields[0]), let peak = Int(fields[1].filter { $0 != "\n" }) else {
            throw BenchFailure("no measurement in \(report)")
        }
        self.seconds = seconds
        self.peakKiB = peak
    }

    /// The trampoline (`backend-bench --run-measured REPORT EXECUTABLE ARGS…`): runs the command
    /// with this process's stdin, stdout, stderr and environment, writes "SECONDS PEAK_KIB" to
    /// REPORT and exits with the command's status (1 when it died of a signal).
    static func runMeasured(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2 else { return 64 }
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        var status: Int32 = 0
        do {
            let (seconds, peak) = try spawnAndWait(arguments[1], Array(arguments.dropFirst(2)), environment: environment,
                                                   stdoutPath: nil, stderrPath: nil, status: &status)
            let fd = open(arguments[0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { return 1 }
            let bytes = Array("\(seconds) \(peak)\n".utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        } catch {
            log("\(error)")
            return 1
        }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 1
    }

    /// Spawns and waits: (seconds, the child's ru_maxrss in KiB). nil paths keep this process's.
    static func spawnAndWait(_ executable: String, _ arguments: [String], environment: [String: String],
                             stdoutPath: String?, stderrPath: String?, status: inout Int32) throws -> (Double, Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdoutPath, let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let start = Clock.now()
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard rc == 0 else { throw BenchFailure("cannot start \(executable): \(String(cString: strerror(rc)))") }
        var usage = rusage()
        while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
        return (Clock.now() - start, Int(usage.ru_maxrss))
    }
}

/// The bytes of the file at `path`.
func readFile(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw BenchFailure("cannot read \(path)") }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return bytes
}

/// Checks that a `fetch-changes --json` output holds `count` "changed" events.
func expectChanged(_ path: String, _ count: Int) throws {
    let lines = try readFile(path).split(separator: UInt8(ascii: "\n"))
    let needle = Array("\"event\":\"changed\"".utf8)
    let changed = lines.filter { line in
        line.count >= needle.count && (0...(line.count - needle.count)).contains { i in line[(line.startIndex + i)...].starts(with: needle) }
    }.count
    guard changed == count else { throw BenchFailure("\(path): \(changed) changed events, expected \(count)") }
}
