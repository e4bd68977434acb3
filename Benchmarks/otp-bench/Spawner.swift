#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion: whole-process wall time, or its stdout.
enum Spawner {
    /// Monotonic nanoseconds.
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Spawns `arguments` with stdin, stdout and stderr on /dev/null, waits, and returns the
    /// wall time in milliseconds (spawn to reaped) and the exit status.
    static func time(_ arguments: [String], environment: [String: String]) -> (ms: Double, status: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        defer { posix_spawn_file_actions_destroy(&actions) }
        let start = now()
        let status = spawnAndWait(arguments, environment: environment, actions: &actions)
        return (Double(now() - start) / 1e6, status)
    }

    /// Runs `arguments` and returns what it printed on stdout.
    static func output(_ arguments: [String], environment: [String: String]) -> (stdout: String, status: Int32) {
        var pipeFDs: [Int32] = [0, 0]
        pipe(&pipeFDs)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else {
            close(pipeFDs[0]); close(pipeFDs[1])
            return ("", 127)
        }
        close(pipeFDs[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(pipeFDs[0], &buffer, buffer.count)
            if n > 0 { bytes += buffer[0..<n] } else if n < 0 && errno == EINTR { continue } else { break }
        }
        close(pipeFDs[0])
        return (String(decoding: bytes, as: UTF8.self), wait(pid))
    }

    static func spawnAndWait(_ arguments: [String], environment: [String: String],
                             actions: inout posix_spawn_file_actions_t) -> Int32 {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { return 127 }
        return wait(pid)
    }

    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
