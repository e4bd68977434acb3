import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A fresh cloud on the test server (`CLOUDSYNC_TEST_POSTGRES_URL`, set by scripts/with-postgres):
/// the server's URL with a schema of its own (`?schema=`). Without a server the test fails with
/// how to run it; it is never skipped.
struct PostgresTestCloud {
    let url: String
    /// The schema of this cloud (`url`'s `schema=`).
    let schemaName: String
    let home = TemporaryDirectory("postgres-e2e")

    init() throws {
        guard let base = getenv("CLOUDSYNC_TEST_POSTGRES_URL").map({ String(cString: $0) }), !base.isEmpty else {
            Issue.record("CLOUDSYNC_TEST_POSTGRES_URL is not set: run the tests under scripts/with-postgres (scripts/test does)")
            throw Missing()
        }
        var bytes = [UInt8](repeating: 0, count: 8)
        _ = getentropy(&bytes, bytes.count)
        schemaName = "e2e_" + bytes.map { String($0, radix: 16) }.joined()
        url = base + (base.contains("?") ? "&" : "?") + "schema=" + schemaName
    }

    struct Missing: Error {}

    /// A runner whose every invocation uses this cloud (`CLOUDSYNC_CLOUD`).
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_CLOUD": url]) }

    /// The test server's URL with another user's password, or the credentials replaced.
    func replacingPassword(with password: String) -> String {
        guard let at = url.firstIndex(of: "@"), let scheme = url.firstRange(of: "://"),
              let colon = url[scheme.upperBound..<at].firstIndex(of: ":") else { return url }
        return String(url[..<url.index(after: colon)]) + password + String(url[at...])
    }
}

/// A `cloudsync` started in the background with its output in files (killed past its deadline).
struct BackgroundCommand {
    let pid: pid_t
    let stdoutPath: String

    /// Starts `cloudsync --device DEVICE ARGUMENTS` with stdin from the file `stdin`.
    init(_ runner: BinaryRunner, _ arguments: [String], device: String, stdout: String, stdin: String = "/dev/null") {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stdout + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
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
    }

    /// The exit status, or nil when it did not end within `seconds` (it is then killed).
    func wait(seconds: Double) -> Int32? {
        let deadline = monotonicNow() + seconds
        var status: Int32 = 0
        while monotonicNow() < deadline {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F) }
            if done < 0 && errno != EINTR { return nil }
            sleepSeconds(0.02)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return nil
    }

    var output: String { read(stdoutPath) }
    var errors: String { read(stdoutPath + ".err") }

    func read(_ path: String) -> String {
        TemporaryDirectory.readBytes(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

extension String {
    /// This postgres URL with its `schema=` value replaced by `schema`.
    func replacingSchema(with schema: String) -> String {
        guard let range = firstRange(of: "schema=") else { return self }
        let end = self[range.upperBound...].firstIndex(of: "&") ?? endIndex
        return String(self[..<range.upperBound]) + schema + String(self[end...])
    }
}
