#if canImport(Glibc)
import Glibc
#endif

/// A `cloudsync` started in the background with stdout and stderr in files, waited for with a
/// deadline (a test never hangs: past it, the process is killed). Shared by the end-to-end
/// suites that run listeners and servers (subscribe, serve).
public struct BackgroundProcess {
    public let pid: pid_t
    public let stdoutPath: String
    public let stderrPath: String

    public init(_ runner: BinaryRunner, _ arguments: [String], device: String, stdout: String, stderr: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([runner.executable, "--device", device] + arguments).map { strdup($0) } + [nil]
        let envp = runner.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var child: pid_t = 0
        var attributes = ProcessSpawner.cleanSignalState()
        _ = posix_spawn(&child, runner.executable, &actions, &attributes, argv, envp)
        posix_spawnattr_destroy(&attributes)
        posix_spawn_file_actions_destroy(&actions)
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        pid = child
        stdoutPath = stdout
        stderrPath = stderr
    }

    /// The exit status, or nil if the process did not end within `seconds` (it is then killed).
    public func wait(seconds: Double) -> Int32? {
        let deadline = Self.now() + seconds
        var status: Int32 = 0
        while Self.now() < deadline {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return Self.decode(status) }
            if done < 0 && errno != EINTR { return nil }
            sleepSeconds(0.02)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return nil
    }

    /// Polls `path` until it holds `text` or `seconds` pass.
    public static func waitForText(_ text: String, in path: String, seconds: Double) -> Bool {
        let deadline = now() + seconds
        while now() < deadline {
            if read(path).contains(text) { return true }
            sleepSeconds(0.02)
        }
        return false
    }

    public static func read(_ path: String) -> String {
        TemporaryDirectory.readBytes(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    public static func decode(_ status: Int32) -> Int32 {
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
