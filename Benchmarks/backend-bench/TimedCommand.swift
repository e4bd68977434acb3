#if canImport(Glibc)
import Glibc
#endif

/// One run of a command as a user runs it (`cloudsync … fetch-changes`): wall time from spawn to
/// exit and the child's peak RSS from wait4's rusage. Stdout goes to `stdoutPath`, stderr to
/// `stderrPath`; a non-zero exit is a failure.
struct TimedCommand {
    var seconds: Double
    var peakKiB: Int

    init(_ executable: String, _ arguments: [String], environment: [String: String],
         stdoutPath: String = "/dev/null", stderrPath: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
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
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
        seconds = Clock.now() - start
        peakKiB = Int(usage.ru_maxrss)
        guard status == 0 else {
            throw BenchFailure("\(([executable] + arguments).joined(separator: " ")) failed (wait status \(status)); see \(stderrPath)")
        }
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
