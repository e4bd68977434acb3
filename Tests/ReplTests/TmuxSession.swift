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
        // The socket stays in tmux's default folder (not the test's, which may be removed first),
        // so `kill-server` always finds the server.
        environment = ["PATH": "/usr/bin:/bin", "HOME": folder, "TERM": "screen", "LANG": "C.UTF-8"]
        let status = TmuxSession.spawnAsFromATerminal(tmux, ["-L", socket, "-f", "/dev/null", "new-session", "-d",
                                                             "-x", "200", "-y", "50", command],
                                                      environment: environment)
        guard status == 0 else {
            Issue.record("tmux did not start (status \(status))", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Starts a program with no blocked and no ignored signals, as a shell on a terminal would.
    /// (Test threads block signals; the tmux server and its panes would inherit that mask, and a
    /// Ctrl-C would then never arrive.) Returns the exit status.
    private static func spawnAsFromATerminal(_ path: String, _ arguments: [String],
                                             environment: [String: String]) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, &attributes, argv, envp) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
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

    /// Waits until the last line of the pane is `prompt` and nothing else: the REPL is idle at
    /// its prompt with the terminal in readline's mode. (A Ctrl-D typed while a command still
    /// runs reaches a terminal in cooked mode and is lost, as in any shell.)
    @discardableResult
    func waitForIdle(_ prompt: String, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = TmuxSession.now() + timeout
        let wanted = prompt.trimmingTrailingBlanks()
        while TmuxSession.now() < deadline {
            screen = capture()
            let last = screen.split(separator: "\n").last { !$0.allSatisfy { $0 == " " } }
            if let last, String(last).trimmingTrailingBlanks() == wanted { return true }
            usleep(50_000)
        }
        Issue.record("timed out waiting for the idle prompt '\(prompt)'; the screen:\n\(screen)", sourceLocation: sourceLocation)
        return false
    }

    /// Presses Ctrl-D at the idle prompt and waits for the REPL to exit with status 0.
    func quit(_ prompt: String, sourceLocation: SourceLocation = #_sourceLocation) {
        waitForIdle(prompt, sourceLocation: sourceLocation)
        press("C-d")
        waitFor("[exit 0]", sourceLocation: sourceLocation)
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
    /// status as `[exit N]`, then keeps the pane open. The wrapper is bash, which (unlike dash)
    /// survives a Ctrl-C that its foreground child handles, as an interactive shell does.
    static func cloudsyncCommand(_ arguments: [String], environment: [String: String]) -> String {
        let assignments = environment.sorted { $0.key < $1.key }.map { quoted($0.key + "=" + $0.value) }
        let words = ["exec", "env", "-i"] + assignments + ["/bin/bash", "--norc", "-c",
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
    /// Without blanks at the end.
    func trimmingTrailingBlanks() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

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
