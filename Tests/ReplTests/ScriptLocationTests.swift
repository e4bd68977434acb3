@testable import CloudSyncCLI
import TestSupport
import Testing

/// Issue 15: script mode errors start `FILE:LINE:` (`-:LINE:` for stdin), as psql writes them;
/// in the REPL an open quote at the end of a line continues onto the next one.
@Suite struct ScriptLocationTests {
    @Test func everyErrorOfAScriptLineNamesFileAndLine() throws {
        let home = TemporaryDirectory("script-location")
        let cli = BinaryRunner(home: home.path)
        let piped = cli.run([], stdin: "zone create Notes\n\nrecord get nope\nzone bogus\n")
        #expect(piped.status == 3)
        #expect(piped.stderr.contains("cloudsync: error: -:3: record 'nope' not found"), "\(piped.stderr)")
        #expect(piped.stderr.contains("cloudsync: error: -:4: unknown subcommand 'bogus'"), "\(piped.stderr)")
        let path = home.write("setup.cloudsync", "# setup\nuse nothing\nrecord get gone\n")
        let file = cli.run(["repl", path])
        #expect(file.stderr.contains("error: " + path + ":2: use: unknown setting 'nothing'"), "\(file.stderr)")
        #expect(file.stderr.contains("error: " + path + ":3: record 'gone' not found"), "\(file.stderr)")
    }

    @Test func anOpenQuoteContinuesOntoTheNextLine() {
        var lines: [LineInput] = [.line("two' three\\"), .line(" four")]
        let joined = ReplSession.logicalLine(.line("record save Note n1 --field 'body=one")) { lines.removeFirst() }
        #expect(joined == .line("record save Note n1 --field 'body=one\ntwo' three four"))
        #expect(lines.isEmpty)
        #expect((try? CommandLineSplitter.split("record save Note n1 --field 'body=one\ntwo' three four"))
                == ["record", "save", "Note", "n1", "--field", "body=one\ntwo", "three", "four"])
        var interrupted: [LineInput] = [.interrupted]
        #expect(ReplSession.logicalLine(.line("say \"hi")) { interrupted.removeFirst() } == .interrupted)
        #expect(ReplSession.logicalLine(.line("zone list")) { Issue.record("no continuation"); return .endOfInput }
                == .line("zone list"))
    }
}
