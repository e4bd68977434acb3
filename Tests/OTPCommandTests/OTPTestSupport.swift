import CloudSyncCore
import TestSupport
import Testing

/// The RFC test secret "12345678901234567890" in base32.
let rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

/// What a finished `cloudsync` left (as TestSupport's ProcessResult, whose initializer is internal).
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout without its trailing newline.
    var out: String {
        var text = stdout
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// stdout parsed as one JSON document.
    func json() throws -> JSONValue { try JSONValue.parse(stdout) }

    /// stdout parsed as NDJSON.
    func ndjson() throws -> [JSONValue] { try stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) } }

    /// stderr's `{"error": …}` document.
    func errorJSON() throws -> JSONValue { try JSONValue.parse(stderr.split(separator: "\n").last.map(String.init) ?? "") }
}

extension BinaryRunner {
    /// The names `otp list --json` shows on a device.
    func tokenNames(_ device: String) throws -> [String] {
        try exec(["otp", "list", "--json"], device: device).json()["tokens"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }

    /// `otp code QUERY --at @T -q`.
    func code(_ query: String, at time: Int64, device: String) -> String {
        exec(["otp", "code", query, "--at", "@\(time)", "-q"], device: device).out
    }
}

/// True when `needle` occurs in `haystack`.
func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
    }
    return false
}

#if canImport(Glibc)
import Glibc
#endif

extension BinaryRunner {
    /// Runs `cloudsync` like `run`, but over close-on-exec socket pairs: a process that another
    /// test spawns at the same moment cannot inherit this child's stdin and keep it from ever
    /// seeing end of input (`otp add` and `otp import -` read stdin to its end).
    @discardableResult
    func exec(_ arguments: [String], device: String? = nil, stdin input: String = "", env extra: [String: String] = [:]) -> RunResult {
        var args = arguments
        if let device { args = ["--device", device] + args }
        var env = environment
        for (k, v) in extra { env[k] = v }
        return IsolatedSpawner.run(executable, args, environment: env, stdin: input)
    }
}

/// posix_spawn with close-on-exec socket pairs for stdin, stdout and stderr.
enum IsolatedSpawner {
    static func pair() -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        let rc = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        precondition(rc == 0, "socketpair failed")
        return (fds[0], fds[1])
    }

    static func run(_ path: String, _ arguments: [String], environment: [String: String], stdin input: String) -> RunResult {
        let (inParent, inChild) = pair(), (outParent, outChild) = pair(), (errParent, errChild) = pair()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inChild, 0)
        posix_spawn_file_actions_adddup2(&actions, outChild, 1)
        posix_spawn_file_actions_adddup2(&actions, errChild, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        posix_spawn_file_actions_destroy(&actions)
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        close(inChild); close(outChild); close(errChild)
        guard rc == 0 else {
            close(inParent); close(outParent); close(errParent)
            return RunResult(status: 127, stdout: "", stderr: "spawn \(path) failed: \(rc)")
        }
        // stdin from a thread, so a large input cannot deadlock against full output buffers.
        let box = Unmanaged.passRetained(Feed(fd: inParent, bytes: Array(input.utf8)))
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let feed = Unmanaged<Feed>.fromOpaque(raw!).takeRetainedValue()
            var offset = 0
            while offset < feed.bytes.count {
                let n = feed.bytes[offset...].withUnsafeBytes { send(feed.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                offset += n
            }
            close(feed.fd)
            return nil
        }, box.toOpaque())
        var out: [UInt8] = [], err: [UInt8] = []
        var fds = [pollfd(fd: outParent, events: Int16(POLLIN), revents: 0), pollfd(fd: errParent, events: Int16(POLLIN), revents: 0)]
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
        pthread_join(thread, nil)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return RunResult(status: code, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    final class Feed: @unchecked Sendable {
        let fd: Int32
        let bytes: [UInt8]
        init(fd: Int32, bytes: [UInt8]) { self.fd = fd; self.bytes = bytes }
    }
}
