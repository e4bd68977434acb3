import CloudSyncCLI
import TestSupport
import Testing

/// Help goes through a pager on a terminal ($CLOUDSYNC_PAGER, $PAGER, less -FRX), never when piped.
@Suite("Help through a pager")
struct PagerTests {
    /// A pager that marks every line, so paged text is recognisable.
    static let marking = "sed 's/^/paged: /'"

    @Test func theCommandIsChosenAsGitDoes() {
        #expect(Pager.command(environment: ["CLOUDSYNC_PAGER": "most", "PAGER": "more"]) == "most")
        #expect(Pager.command(environment: ["PAGER": " more -s "]) == "more -s")
        #expect(Pager.command(environment: ["PAGER": "cat"]) == nil)
        #expect(Pager.command(environment: ["CLOUDSYNC_PAGER": "", "PAGER": "more"]) == nil)
        #expect(Pager.command(environment: ["PATH": "/usr/bin:/bin"]) == "less -FRX")
        #expect(Pager.command(environment: ["PATH": "/nonexistent"]) == nil, "no less, no pager")
    }

    @Test func helpOnATerminalGoesThroughThePager() {
        let home = TempDir()
        defer { home.remove() }
        let environment = baseEnvironment(home: home, extra: ["PAGER": "more", "CLOUDSYNC_PAGER": Self.marking])
        for arguments in [["help", "zone"], ["zone", "--help"], ["help", "-a"]] {
            let result = invoke(Toy.registry(), arguments, environment: environment, isTTY: true)
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("paged: ") }, "\(arguments): \(result.stdout)")
        }
    }

    @Test func pipedJSONAndCatAreNeverPaged() {
        let home = TempDir()
        defer { home.remove() }
        let paged = baseEnvironment(home: home, extra: ["CLOUDSYNC_PAGER": Self.marking])
        let piped = invoke(Toy.registry(), ["help", "zone"], environment: paged, isTTY: false)
        #expect(piped.status == 0 && !piped.stdout.isEmpty && !piped.stdout.contains("paged: "))
        let json = invoke(Toy.registry(), ["help", "zone", "--json"], environment: paged, isTTY: true)
        #expect(!json.stdout.contains("paged: "))
        let cat = invoke(Toy.registry(), ["help", "zone"], environment: baseEnvironment(home: home, extra: ["PAGER": "cat"]),
                         isTTY: true)
        #expect(cat.stdout == piped.stdout)
    }

    @Test func theBinaryPagesOnlyOnATerminal() {
        let home = TemporaryDirectory("pager-e2e")
        let cli = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_PAGER": Self.marking])
        let piped = cli.run(["help", "otp", "code"])
        #expect(piped.status == 0)
        #expect(piped.stdout.hasPrefix("NAME\n  cloudsync otp code"))
        // script(1) makes stdout a terminal.
        let terminal = ProcessSpawner.run("/usr/bin/script", ["-qec", "'\(BinaryRunner.cloudsyncPath)' help otp code", "/dev/null"],
                                          environment: cli.environment)
        #expect(terminal.status == 0)
        #expect(terminal.stdout.hasPrefix("paged: NAME"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("paged:   cloudsync otp code"))
    }
}
