import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The signal state children start with: the test harness's children (so a test can stop a
/// `subscribe listen` with SIGTERM) and the product's own children (plugins, `subscribe listen
/// --exec` commands): an empty mask and default dispositions, whatever the parent had.
@Suite("Children start with an empty signal mask and default dispositions (end to end)")
struct ChildSignalStateTests {
    let home = TemporaryDirectory("child-signals-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    /// Bit of `signal` in a /proc status mask.
    static func bit(_ signal: Int32) -> UInt64 { 1 << UInt64(signal - 1) }

    /// The `SigBlk` and `SigIgn` masks in /proc/…/status text.
    static func masks(_ status: String) -> (blocked: UInt64, ignored: UInt64)? {
        var blocked: UInt64?, ignored: UInt64?
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { String($0.filter { !$0.isWhitespace }) }
            guard parts.count == 2 else { continue }
            if parts[0] == "SigBlk" { blocked = UInt64(parts[1], radix: 16) }
            if parts[0] == "SigIgn" { ignored = UInt64(parts[1], radix: 16) }
        }
        guard let blocked, let ignored else { return nil }
        return (blocked, ignored)
    }

    /// Runs `body` on this thread with `signals` blocked (as a test's worker thread may have them).
    static func withBlocked<T>(_ signals: [Int32], _ body: () -> T) -> T {
        var set = sigset_t(), saved = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        return body()
    }

    /// Waits for `pid` at most `seconds`; nil (and the process killed) if it did not end.
    static func wait(_ pid: pid_t, seconds: Int) -> Int32? {
        var status: Int32 = 0
        for _ in 0..<(seconds * 50) {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F) }
            sleepSeconds(0.02)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return nil
    }

    @Test func theHarnessGivesItsChildrenACleanSignalState() throws {
        let result = Self.withBlocked([SIGTERM, SIGINT, SIGUSR1]) {
            ProcessSpawner.run("/bin/grep", ["-E", "^Sig(Blk|Ign)", "/proc/self/status"], environment: [:])
        }
        let masks = try #require(Self.masks(result.stdout), "\(result.stdout)")
        #expect(masks.blocked == 0, "no signal blocked")
        #expect(masks.ignored & Self.bit(SIGPIPE) == 0, "SIGPIPE at its default action")
    }

    @Test func subscribeListenStartedFromATestStopsOnSIGTERM() throws {
        let listen = Self.withBlocked([SIGTERM, SIGINT]) { cli.start(["subscribe", "listen"], device: "phone") }
        // posix_spawn returns once the child runs cloudsync: stop it as a user would.
        listen.kill(SIGTERM)
        #expect(Self.wait(listen.pid, seconds: 30) == 128 + SIGTERM)
    }

    @Test func pluginsGetDefaultDispositionsAndAnEmptyMask() throws {
        let plugins = home.file("plugins")
        home.makeDirectory("plugins")
        home.write("plugins/cloudsync-sigstate", "#!/bin/sh\nexec grep -E '^Sig(Blk|Ign)' /proc/self/status\n", mode: 0o755)
        let output = home.file("sigstate.out")
        // cloudsync itself starts with SIGTERM, SIGPIPE and SIGUSR1 ignored (`trap ''` survives
        // exec) and SIGTERM and SIGUSR1 blocked; SIGHUP ignored as under nohup.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGUSR1)
        posix_spawnattr_setsigmask(&attributes, &blocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var environment = cli.environment
        environment["CLOUDSYNC_EXEC_PATH"] = plugins
        let words: [String] = ["/bin/sh", "-c", "trap '' TERM PIPE USR1 HUP; exec \"$0\" sigstate", cli.executable]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        posix_spawnattr_destroy(&attributes)
        posix_spawn_file_actions_destroy(&actions)
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        #expect(spawned == 0)
        #expect(Self.wait(pid, seconds: 30) == 0)
        let text = String(decoding: TemporaryDirectory.readBytes(output) ?? [], as: UTF8.self)
        let masks = try #require(Self.masks(text), "\(text)")
        #expect(masks.blocked == 0, "no signal blocked in the plugin: \(text)")
        for signal in [SIGTERM, SIGPIPE, SIGUSR1] {
            #expect(masks.ignored & Self.bit(signal) == 0, "signal \(signal) at its default action in the plugin: \(text)")
        }
        #expect(masks.ignored & Self.bit(SIGHUP) != 0, "an ignored SIGHUP (nohup) is kept")
    }
}
