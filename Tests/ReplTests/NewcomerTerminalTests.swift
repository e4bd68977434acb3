import Glibc
import TestSupport
import Testing

/// Issue 30 items 4, 13 and 14: what a newcomer sees on a terminal (a real pseudo-terminal made
/// by util-linux `script`, whose output keeps every byte, lines redrawn in place included), and
/// the REPL's `use` and `clear`.
@Suite struct NewcomerTerminalTests {
    /// Runs `cloudsync <arguments>` with stdin, stdout and stderr on a pseudo-terminal; all it
    /// wrote there, and its exit status.
    static func onTerminal(_ arguments: [String], runner: BinaryRunner, env extra: [String: String] = [:]) -> (String, Int32) {
        let script = ["/usr/bin/script", "/bin/script"].first { (path: String) in access(path, X_OK) == 0 }
        guard let script else {
            Issue.record("util-linux 'script' is missing: run scripts/install-deps")
            return ("", -1)
        }
        var environment = runner.environment
        environment["TERM"] = "xterm"
        environment.merge(extra) { $1 }
        let command = ([BinaryRunner.cloudsyncPath] + arguments).map(TmuxSession.quoted).joined(separator: " ")
        let result = ProcessSpawner.run(script, ["-q", "-e", "-c", command, "/dev/null"], environment: environment)
        return (result.stdout, result.status)
    }

    @Test func anEmptyQuerySaysSoOnATerminal() {
        let home = TemporaryDirectory("newcomer-empty")
        let cli = BinaryRunner(home: home.path)
        #expect(cli.run(["record", "save", "Note", "n1", "--field", "title=Hi"]).status == 0)
        let (screen, status) = Self.onTerminal(["record", "query", "Noet"], runner: cli)
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("(0 records)"), "\(screen)")
        #expect(screen.contains("Did you mean 'Note'?"), "\(screen)")
        let (found, _) = Self.onTerminal(["record", "query", "Note"], runner: cli)
        #expect(found.contains("n1") && !found.contains("(0 records)"), "\(found)")
    }

    @Test func queryAllShowsProgressOnlyOnATerminal() {
        let home = TemporaryDirectory("newcomer-progress")
        let cli = BinaryRunner(home: home.path)
        for index in 1...12 {
            #expect(cli.run(["record", "save", "Note", "n\(index)", "--field", "title=\(index)"]).status == 0)
        }
        let arguments = ["record", "query", "Note", "--all", "--limit", "5"]
        let (screen, status) = Self.onTerminal(arguments, runner: cli)
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("fetched 5 records") && screen.contains("fetched 10 records"), "\(screen)")
        #expect(screen.contains("n12"))
        let piped = cli.run(arguments)
        #expect(piped.status == 0 && !piped.stderr.contains("fetched"), "\(piped.stderr)")
        let (quiet, _) = Self.onTerminal(["--quiet"] + arguments, runner: cli)
        #expect(!quiet.contains("fetched"), "\(quiet)")
    }

    @Test func retriesAreToldOnATerminal() {
        let home = TemporaryDirectory("newcomer-retry")
        let cli = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"])
        #expect(cli.run(["store", "sync", "on"]).status == 0)
        #expect(cli.run(["store", "put", "Todo", "milk", "--field", "title=Milk"]).status == 0)
        let faults = ["CLOUDSYNC_FAULTS": "networkUnavailable:2"]
        let (screen, status) = Self.onTerminal(["store", "sync"], runner: cli, env: faults)
        #expect(status == 0, "\(screen)")
        #expect(screen.occurrences(of: "retrying: ") == 2, "\(screen)")
        #expect(cli.run(["store", "put", "Todo", "eggs", "--field", "title=Eggs"]).status == 0)
        let piped = cli.run(["store", "sync"], env: faults)
        #expect(piped.status == 0 && !piped.stderr.contains("retrying"), "\(piped.stderr)")
    }

    @Test func useValidatesAtOnceShowsTheEnvironmentAndClearClears() {
        let home = TemporaryDirectory("newcomer-use")
        let cli = BinaryRunner(home: home.path)
        let script = """
            use container x
            use environment prod
            use environment production
            use
            clear
            """
        let result = cli.run([], device: "laptop", stdin: script)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("-:1:") && result.stderr.contains("'x'"), "\(result.stderr)")
        #expect(result.stderr.contains("-:2:") && result.stderr.contains("Did you mean 'production'?"), "\(result.stderr)")
        #expect(!result.stderr.contains("CLOUDSYNC_CONTAINER"), "blamed on the variable: \(result.stderr)")
        #expect(result.stdout.contains("container    iCloud.com.example.App\n"), "the bad container was not taken: \(result.stdout)")
        #expect(result.stdout.contains("environment  production\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}"), "clear writes nothing to a pipe")
    }

    @Test func clearClearsTheTerminal() {
        let home = TemporaryDirectory("newcomer-clear")
        guard let repl = ReplTerminalTests.start(home) else { return }
        let prompt = "alice@laptop> "
        repl.type("use")
        repl.press("Enter")
        repl.waitFor("environment  development")
        repl.waitForIdle(prompt)
        repl.type("clear")
        repl.press("Enter")
        var cleared = false
        for _ in 0..<200 where !cleared {
            let screen = repl.capture()
            cleared = !screen.contains("environment  development") && screen.contains(prompt)
            if !cleared { usleep(50_000) }
        }
        #expect(cleared, "the screen after clear: \(repl.capture())")
        repl.quit(prompt)
    }
}
