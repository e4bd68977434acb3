import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// What a finished process left.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// stdout parsed as one JSON document.
    public func json() throws -> JSONValue { try JSONValue.parse(stdout) }

    /// The first record of a `{"records": […]}` reply (`record get`, `store get`), or null.
    public func firstRecord() throws -> JSONValue { try json()["records"]?.arrayValue?.first ?? .null }

    /// stdout parsed as NDJSON (one document per non-empty line).
    public func ndjson() throws -> [JSONValue] {
        try stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    /// stderr parsed as the `{"error": …}` document of --json mode.
    public func errorJSON() throws -> JSONValue { try JSONValue.parse(stderr.split(separator: "\n").last.map(String.init) ?? "") }
}

/// Runs the built `cloudsync` binary as a user would: a real process, its own environment,
/// stdin from a string, stdout and stderr captured.
public struct BinaryRunner: Sendable {
    /// The folder holding the built products (next to the test bundle).
    public static let productsDirectory: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        // …/debug/cloudsyncPackageTests.xctest  (the test binary itself)
        guard let slash = exe.lastIndex(of: "/") else { return "." }
        return String(exe[..<slash])
    }()

    /// Path of the built `cloudsync`.
    public static var cloudsyncPath: String { productsDirectory + "/cloudsync" }

    public var executable: String
    /// Environment of every run: a private CLOUDSYNC_HOME and config, nothing from the user.
    public var environment: [String: String]

    /// A runner with `home` as CLOUDSYNC_HOME and XDG folders inside it.
    public init(home: String, executable: String = BinaryRunner.cloudsyncPath, extra: [String: String] = [:]) {
        self.executable = executable
        var env: [String: String] = [
            "CLOUDSYNC_HOME": home,
            "XDG_CONFIG_HOME": home + "/config",
            "XDG_STATE_HOME": home + "/state",
            "XDG_DATA_HOME": home + "/data",
            "HOME": home,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "CLOUDSYNC_ACCOUNT": "alice",
        ]
        for (k, v) in extra { env[k] = v }
        self.environment = env
    }

    /// Runs `cloudsync` with arguments; `device` adds `--device`.
    @discardableResult
    public func run(_ arguments: [String], device: String? = nil, stdin: String = "",
                    env extra: [String: String] = [:]) -> ProcessResult {
        var args = arguments
        if let device { args = ["--device", device] + args }
        var env = environment
        for (k, v) in extra { env[k] = v }
        return ProcessSpawner.run(executable, args, environment: env, stdin: stdin)
    }
}

/// posix_spawn with pipes for stdin, stdout and stderr.
public enum ProcessSpawner {
    /// A child that exits before reading all its stdin must not kill the test process with
    /// SIGPIPE: the feeding thread's write then fails with EPIPE instead.
    static let sigpipeIgnored: Bool = { signal(SIGPIPE, SIG_IGN); return true }()

    /// Runs a program to completion and captures its output.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String],
                           stdin input: String = "") -> ProcessResult {
        _ = sigpipeIgnored
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        // Close-on-exec: tests run in parallel, and a pipe end inherited by another test's child
        // would keep this child's stdin (or our read) open forever.
        // (Socket pairs: Swift's Glibc module does not export pipe2, and pipe + fcntl would race.)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        socketpair(AF_UNIX, type, 0, &inPipe); socketpair(AF_UNIX, type, 0, &outPipe); socketpair(AF_UNIX, type, 0, &errPipe)
        shutdown(inPipe[0], Int32(SHUT_WR)); shutdown(outPipe[1], Int32(SHUT_RD)); shutdown(errPipe[1], Int32(SHUT_RD))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        var attributes = cleanSignalState()
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        posix_spawnattr_destroy(&attributes)
        posix_spawn_file_actions_destroy(&actions)
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        close(inPipe[0]); close(outPipe[1]); close(errPipe[1])
        guard rc == 0 else {
            close(inPipe[1]); close(outPipe[0]); close(errPipe[0])
            return ProcessResult(status: 127, stdout: "", stderr: "spawn \(path) failed: \(rc)")
        }
        // Feed stdin from a thread so a large input cannot deadlock against full output pipes.
        let writer = inPipe[1]
        let bytes = Array(input.utf8)
        var thread = pthread_t()
        let box = Unmanaged.passRetained(InputBox(fd: writer, bytes: bytes))
        pthread_create(&thread, nil, { raw in
            let box = Unmanaged<InputBox>.fromOpaque(raw!).takeRetainedValue()
            var offset = 0
            while offset < box.bytes.count {
                let n = box.bytes[offset...].withUnsafeBytes { write(box.fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                offset += n
            }
            close(box.fd)
            return nil
        }, box.toOpaque())
        let (out, err) = readBoth(outPipe[0], errPipe[0])
        pthread_join(thread, nil)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ProcessResult(status: code, stdout: out, stderr: err)
    }

    /// Spawn attributes that give the child an empty signal mask and every signal's default
    /// action, as a shell would. Without them a child inherits the mask of the spawning thread
    /// (a test's worker thread blocks signals: SIGTERM could not stop a `subscribe listen`) and
    /// this process's ignored SIGPIPE. The caller destroys the attributes.
    public static func cleanSignalState() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Int32(1)...31 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        return attributes
    }

    final class InputBox: @unchecked Sendable {
        let fd: Int32
        let bytes: [UInt8]
        init(fd: Int32, bytes: [UInt8]) { self.fd = fd; self.bytes = bytes }
    }

    static func readBoth(_ outFD: Int32, _ errFD: Int32) -> (String, String) {
        var out: [UInt8] = [], err: [UInt8] = []
        var fds = [pollfd(fd: outFD, events: Int16(POLLIN), revents: 0), pollfd(fd: errFD, events: Int16(POLLIN), revents: 0)]
        var open = 2
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            poll(&fds, 2, -1)
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = read(fds[i].fd, &buffer, buffer.count)
                if n > 0 {
                    if i == 0 { out += buffer[0..<n] } else { err += buffer[0..<n] }
                } else {
                    close(fds[i].fd)
                    fds[i].fd = -1
                    open -= 1
                }
            }
        }
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

/// A child started without waiting, for tests that kill processes at random moments.
public struct RunningProcess: Sendable {
    public let pid: pid_t

    /// Sends a signal (SIGKILL by default).
    public func kill(_ signal: Int32 = SIGKILL) { _ = Glibc.kill(pid, signal) }

    /// Waits for the process; returns its exit status (128 + signal for a signal death).
    @discardableResult
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

extension BinaryRunner {
    /// Starts `cloudsync` with stdin, stdout and stderr on /dev/null and returns at once.
    public func start(_ arguments: [String], device: String? = nil) -> RunningProcess {
        var args = arguments
        if let device { args = ["--device", device] + args }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([executable] + args).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        var attributes = ProcessSpawner.cleanSignalState()
        _ = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        posix_spawnattr_destroy(&attributes)
        posix_spawn_file_actions_destroy(&actions)
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        return RunningProcess(pid: pid)
    }
}

/// Sleeps for `seconds`.
public func sleepSeconds(_ seconds: Double) {
    var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var rest = timespec()
    while nanosleep(&ts, &rest) != 0 && errno == EINTR { ts = rest }
}
