import CloudSyncCLI
import CloudSyncCore
import Testing

@Suite struct OutputTests {
    func capture(json: Bool = false, quiet: Bool = false, color: Bool = false, tty: Bool = false,
                 _ body: (Output) -> Void) -> (String, String) {
        let out = CaptureFile()
        let err = CaptureFile()
        let output = Output(stdout: out.fd, stderr: err.fd, json: json, quiet: quiet, color: color, isTTY: tty)
        body(output)
        output.flush()
        return (out.contents(), err.contents())
    }

    @Test func linesInfoWarningsAndErrors() {
        let (out, err) = capture { output in
            output.line("hello")
            output.info("working")
            output.warning("careful")
            output.error("broken")
            output.write("no newline")
        }
        #expect(out == "hello\nno newline")
        #expect(err == "working\ncloudsync: warning: careful\ncloudsync: error: broken\n")
    }

    @Test func quietAndJSONSilenceChatterOnly() {
        for (json, quiet) in [(false, true), (true, false)] {
            let (out, err) = capture(json: json, quiet: quiet) { output in
                output.info("working")
                output.line("result")
                output.warning("careful")
            }
            #expect(out == "result\n")
            #expect(err == "cloudsync: warning: careful\n")
        }
    }

    @Test func jsonIsCompactOffATerminalAndPrettyOnOne() {
        let value = JSONValue.object([("a", .int(1)), ("b", .array([.bool(true)]))])
        #expect(capture(json: true) { $0.json(value) }.0 == "{\"a\":1,\"b\":[true]}\n")
        #expect(capture(json: true, tty: true) { $0.json(value) }.0 == value.prettyPrinted() + "\n")
        #expect(capture(json: true, tty: true) { $0.ndjson(value); $0.ndjson(.null) }.0 == "{\"a\":1,\"b\":[true]}\nnull\n")
    }

    @Test func tableAlignsColumns() {
        let (out, _) = capture { $0.table(["NAME", "RECORDS", "NOTE"], [["_defaultZone", "0", ""], ["Notes", "12", "x"], ["Short"]]) }
        #expect(out == """
            NAME          RECORDS  NOTE
            _defaultZone  0
            Notes         12       x
            Short

            """)
    }

    @Test func colorOnlyWhenEnabled() {
        #expect(capture(color: true, tty: true) { $0.line($0.styled("x", .red)) }.0 == "\u{1B}[31mx\u{1B}[0m\n")
        #expect(capture(color: false, tty: true) { $0.line($0.styled("x", .red)) }.0 == "x\n")
        let (out, _) = capture(color: true, tty: true) { $0.table(["A"], [["1"]]) }
        #expect(out == "\u{1B}[1mA\u{1B}[0m\n1\n")
    }

    @Test func stdoutIsFlushedBeforeStderrSoOrderHolds() {
        // Same descriptor for both: the order of calls is the order in the file.
        let file = CaptureFile()
        let output = Output(stdout: file.fd, stderr: file.fd, isTTY: false)
        output.line("one")
        output.info("two")
        output.line("three")
        output.flush()
        #expect(file.contents() == "one\ntwo\nthree\n")
    }

    @Test func largeOutputIsWrittenCompletely() {
        let (out, _) = capture { output in
            for index in 0..<20000 { output.line("line \(index)") }
        }
        #expect(out.split(separator: "\n").count == 20000)
        #expect(out.hasSuffix("line 19999\n"))
    }

    @Test func dispatcherOutputModes() {
        let home = TempDir()
        defer { home.remove() }
        let human = invoke(Toy.registry(), ["zone", "create", "A"], environment: baseEnvironment(home: home))
        #expect(human.stderr == "creating zones\n")
        let quiet = invoke(Toy.registry(), ["-q", "zone", "create", "A"], environment: baseEnvironment(home: home))
        #expect(quiet.stderr.isEmpty)
        #expect(quiet.stdout == "created A\n")
        let table = invoke(Toy.registry(), ["zone", "list"], environment: baseEnvironment(home: home))
        #expect(table.stdout == "NAME          RECORDS\n_defaultZone  0\nNotes         12\n")
    }

    @Test func contextMemoizesPerInvocation() {
        let file = CaptureFile()
        let context = CommandContext(settings: Settings(device: "d", home: "/h"),
                                     output: Output(stdout: file.fd, stderr: file.fd, isTTY: false))
        var made = 0
        let first = context.memoized("cloud") { () -> String in
            made += 1
            return context.memoized("inner") { "nested" } + "-cloud"
        }
        let second = context.memoized("cloud") { () -> String in
            made += 1
            return "again"
        }
        #expect(first == "nested-cloud")
        #expect(second == "nested-cloud")
        #expect(made == 1)
        #expect(context.isInteractive == false)
    }
}
