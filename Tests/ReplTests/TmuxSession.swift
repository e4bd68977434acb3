import Glibc
import TestSupport
import Testing

/// A program running in a real pseudo-terminal: a detached tmux session on a private server
/// (its own `-L` socket in the test's folder), driven with send-keys and read with
/// capture-pane. The server is killed when the session is released.
final class TmuxSession {
    private let tmux: String
    private let socket: String
    private let environment: [String: String]
    /// The pane's text the last time `waitFor` looked.
    private(set) var screen = ""

    private static let sessions = Counter()

    /// Starts `command` (a shell command line) in a 200x50 terminal. Nil, with a recorded
    /// failure, if tmux is not installed or does not start.
    init?(_ command: String, folder: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let tmux = Tool.tmux.path(sourceLocation: sourceLocation) else { return nil }
        self.tmux = tmux
        let number = TmuxSession.sessions.next()
        socket = "cloudsync-test-\(getpid())-\(number)"
        environment = ["PATH": "/usr/bin:/bin", "HOME": folder, "TMUX_TMPDIR": folder, "TERM": "screen",
                       "LANG": "C.UTF-8"]
        let started = ProcessSpawner.run(tmux, ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "200",
                                                "-y", "50", command], environment: environment)
        guard started.status == 0 else {
            Issue.record("tmux did not start: \(started.stderr)", sourceLocation: sourceLocation)
            return nil
        }
    }

    deinit {
        _ = ProcessSpawner.run(tmux, ["-L", socket, "kill-server"], environment: environment)
    }

    /// Types text literally.
    func type(_ text: String) {
        _ = ProcessSpawner.run(tmux, ["-L", socket, "send-keys", "-l", "--", text], environment: environment)
    }

    /// Presses keys by tmux name (`Tab`, `Enter`, `C-c`, `C-d`, `Up`).
    func press(_ keys: String...) {
        _ = ProcessSpawner.run(tmux, ["-L", socket, "send-keys"] + keys, environment: environment)
    }

    /// The pane's text with its scrollback, wrapped lines joined, trailing blanks removed.
    func capture() -> String {
        let result = ProcessSpawner.run(tmux, ["-L", socket, "capture-pane", "-p", "-J", "-S", "-1000"],
                                        environment: environment)
        return result.stdout
    }

    /// Waits until the pane shows `text` at least `count` times; records a failure with the
    /// screen after `timeout` seconds.
    @discardableResult
    func waitFor(_ text: String, count: Int = 1, timeout: Double = 20,
                 sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = TmuxSession.now() + timeout
        while TmuxSession.now() < deadline {
            screen = capture()
            if screen.occurrences(of: text) >= count { return true }
            usleep(50_000)
        }
        Issue.record("timed out waiting for \(count) × '\(text)'; the screen:\n\(screen)", sourceLocation: sourceLocation)
        return false
    }

    /// Waits until `text` has been on the pane for a while without the screen changing (for
    /// asserting that something does not appear).
    func settle() {
        var previous = capture()
        for _ in 0..<20 {
            usleep(100_000)
            let current = capture()
            if current == previous { break }
            previous = current
        }
        screen = previous
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `'text'` for a POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The shell command that runs cloudsync with exactly `environment` and reports its exit
    /// status as `[exit N]`, then keeps the pane open.
    static func cloudsyncCommand(_ arguments: [String], environment: [String: String]) -> String {
        let assignments = environment.sorted { $0.key < $1.key }.map { quoted($0.key + "=" + $0.value) }
        let words = ["exec", "env", "-i"] + assignments + ["/bin/sh", "-c",
            quoted(([quoted(BinaryRunner.cloudsyncPath)] + arguments.map(quoted)).joined(separator: " ")
                   + "; echo \"[exit $?]\"; sleep 600")]
        return words.joined(separator: " ")
    }
}

/// A counter shared by parallel tests.
final class Counter: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var value = 0
    init() { pthread_mutex_init(&mutex, nil) }
    func next() -> Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        value += 1
        return value
    }
}

extension String {
    /// How many times `text` occurs (not overlapping).
    func occurrences(of text: String) -> Int {
        guard !text.isEmpty else { return 0 }
        var count = 0
        var rest = Substring(self)
        while let range = rest.firstRange(of: text) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}
