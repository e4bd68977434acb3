import Glibc
import TestSupport
import Testing

/// Script mode: commands piped into `cloudsync` (or `cloudsync repl`), one per line.
@Suite struct ReplScriptTests {
    static let script = """
        # Two devices in one script.
        zone create Notes

        record save Note n1 --zone Notes \\
            --field 'title=Hello world'
        record get missing --zone Notes
        use device phone
        fetch-changes --json
        zoen
        record get n1 --zone Notes --json
        """

    @Test func runsEveryLineAndExitsWithTheFirstFailure() throws {
        let home = TemporaryDirectory("script-all")
        let result = BinaryRunner(home: home.path).run([], device: "laptop", stdin: Self.script)
        #expect(result.status == 3, "the first failure is 'record get missing' (not found)")
        #expect(result.stdout.contains("zone Notes ready"))
        #expect(result.stdout.contains("saved n1"))
        #expect(result.stdout.contains(#""event":"changed""#), "fetch-changes ran as phone")
        #expect(result.stdout.contains(#""title":{"value":"Hello world""#) || result.stdout.contains("Hello world"))
        #expect(result.stderr.contains("record 'missing' not found"))
        #expect(result.stderr.contains("'zoen' is not a cloudsync command"))
        #expect(result.stderr.contains("Did you mean 'zone'?"))
        var info = stat()
        #expect(stat(home.path + "/devices/alice/phone.sqlite", &info) == 0, "'use device phone' took effect")
        #expect(stat(home.path + "/state/cloudsync/history", &info) != 0, "scripts keep no history")
    }

    @Test func bailStopsAtTheFirstFailure() throws {
        let home = TemporaryDirectory("script-bail")
        let result = BinaryRunner(home: home.path).run(["repl", "--bail"], device: "laptop", stdin: Self.script)
        #expect(result.status == 3)
        #expect(result.stdout.contains("saved n1"))
        #expect(!result.stdout.contains("changed"), "nothing after the failing line ran")
        #expect(!result.stderr.contains("zoen"))
        #expect(result.stderr.contains("-:6: stopped at the first failure (exit status 3) because of --bail"))
        let phone = BinaryRunner(home: home.path).run(["fetch-changes", "--json"], device: "phone")
        #expect(phone.stdout.contains(#""event":"changed""#), "phone never fetched in the script")
    }

    @Test func aCleanScriptExitsZeroAndSkipsCommentsAndBlankLines() throws {
        let home = TemporaryDirectory("script-clean")
        let script = "# setup\n\n   \nzone create A B   # two zones\n  # indented comment\nzone list --json\n"
        let result = BinaryRunner(home: home.path).run(["repl", "--echo"], device: "laptop", stdin: script)
        #expect(result.status == 0)
        #expect(result.stderr == "+ zone create A B   # two zones\n+ zone list --json\n")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.last?.contains(#""zoneName":"B""#) == true)
    }

    @Test func unbalancedQuotesAndExitInScripts() throws {
        let home = TemporaryDirectory("script-quotes")
        let result = BinaryRunner(home: home.path).run([], device: "laptop",
                                                       stdin: "zone list\nzone create \"Notes\nexit\nzone create Never\n")
        #expect(result.status == 64)
        #expect(result.stderr.contains("cloudsync: error: -:2: unbalanced double quote (\"): the quote at column 13 is never closed"))
        let zones = BinaryRunner(home: home.path).run(["zone", "list", "--json"], device: "laptop")
        #expect(!zones.stdout.contains("Never"), "'exit' ended the script")
    }

    @Test func commandsInAScriptDoNotSwallowTheFollowingLines() throws {
        let home = TemporaryDirectory("script-stdin")
        let script = "zone create Notes\nrecord save Note n1 --zone Notes --fields-json -\nzone create After\n"
        let result = BinaryRunner(home: home.path).run([], device: "laptop", stdin: script)
        #expect(result.status == 65, "the fields document on stdin is empty: bad input")
        let zones = BinaryRunner(home: home.path).run(["zone", "list", "--json"], device: "laptop")
        #expect(zones.stdout.contains(#""zoneName":"After""#))
    }

    @Test func aScriptFileArgument() throws {
        let home = TemporaryDirectory("script-file")
        let file = home.write("setup.cloudsync", "zone create FromFile\nzone list\n")
        let result = BinaryRunner(home: home.path).run(["repl", file], device: "laptop")
        #expect(result.status == 0)
        #expect(result.stdout.contains("FromFile"))
        let missing = BinaryRunner(home: home.path).run(["repl", home.file("nope")], device: "laptop")
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("cannot read script"))
    }

    @Test func oneShotCommandsDoNotTouchTheHistory() throws {
        let home = TemporaryDirectory("oneshot")
        let runner = BinaryRunner(home: home.path)
        #expect(runner.run(["--version"]).status == 0)
        #expect(runner.run(["zone", "list"], device: "laptop").status == 0)
        var info = stat()
        #expect(stat(home.path + "/state", &info) != 0, "no state folder for one-shot commands")
    }
}
