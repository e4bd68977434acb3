import CloudSyncCLI
import TestSupport
import Testing

/// Text output is never cut when piped; on a terminal, long values are cut to its width.
@Suite("Terminal width: values cut only on a terminal")
struct TerminalWidthTests {
    static let long = String(repeating: "x", count: 300) + "END"

    /// `output` run on a fresh pair of capture files.
    func capture(isTTY: Bool, width: Int? = nil, _ body: (Output) -> Void) -> String {
        let out = CaptureFile()
        let err = CaptureFile()
        let output = Output(stdout: out.fd, stderr: err.fd, isTTY: isTTY, width: width)
        body(output)
        output.flush()
        return out.contents()
    }

    @Test func tablesAndFittedValuesAreWholeWhenNotATerminal() {
        let text = capture(isTTY: false, width: 40) { output in
            #expect(output.terminalWidth == nil)
            output.table(["NAME", "VALUE", "STATE"], [["a", Self.long, "ok"]], fitting: 1)
            output.line("head \(output.fitted(Self.long, after: 5))")
        }
        #expect(text == "NAME  VALUE\(String(repeating: " ", count: 300))STATE\na     \(Self.long)  ok\nhead \(Self.long)\n")
    }

    @Test func onATerminalTheFittingColumnIsCutSoRowsFitItsWidth() {
        let text = capture(isTTY: true, width: 40) { output in
            output.table(["NAME", "VALUE", "STATE"], [["a", Self.long, "ok"], ["b", "short", "ok"]], fitting: 1)
            output.line("head \(output.fitted(Self.long, after: 5))")
        }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        #expect(lines[1] == "a     " + String(repeating: "x", count: 26) + "…  ok")
        #expect(lines[2].hasPrefix("b     short "))
        #expect(lines[3] == "head " + String(repeating: "x", count: 34) + "…")
    }

    @Test func aNarrowTerminalStillShowsSomeOfTheValue() {
        let text = capture(isTTY: true, width: 10) { output in
            output.line("\(output.fitted(Self.long, after: 30))")
        }
        #expect(text == String(repeating: "x", count: Output.minimumFittedWidth - 1) + "…\n")
    }
}

/// The same through the built binary, as a user runs it: piped, then on a pseudo-terminal.
@Suite("Terminal width through the binary")
struct TerminalWidthBinaryTests {
    let home = TemporaryDirectory("width-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }
    static let long = String(repeating: "y", count: 300) + "END"

    func prepare() {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "body=\(Self.long)"]).status == 0)
        #expect(cli.run(["store", "put", "Note", "s1", "--field", "body=\(Self.long)"]).status == 0)
        #expect(cli.run(["kv", "set", "k", Self.long]).status == 0)
    }

    static let commands = [["record", "query", "Note", "--zone", "Notes"], ["store", "query", "Note"],
                           ["kv", "list"], ["fetch-changes"]]

    @Test func pipedOutputIsNeverCut() {
        prepare()
        for command in Self.commands {
            let result = cli.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stdout.contains(Self.long), "\(command): \(result.stdout)")
            #expect(!result.stdout.contains("…"), "\(command)")
        }
    }

    @Test func onATerminalLinesFitItsWidth() {
        prepare()
        for command in Self.commands {
            let quoted = ([BinaryRunner.cloudsyncPath] + command).map { "'\($0)'" }.joined(separator: " ")
            // script(1) gives the command a pseudo-terminal of 60 columns as its stdout.
            let result = ProcessSpawner.run("/usr/bin/script", ["-qec", "stty cols 60; \(quoted)", "/dev/null"],
                                            environment: cli.environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let lines = result.stdout.split { $0 == "\n" || $0 == "\r\n" }
                .map { $0.replacingOccurrences("\u{1B}[1m", "").replacingOccurrences("\u{1B}[0m", "") }
            #expect(lines.contains { $0.contains("yyy…") }, "\(command): \(lines)")
            #expect(lines.allSatisfy { $0.count <= 60 }, "\(command): \(lines)")
            #expect(!result.stdout.contains("END"))
        }
    }
}

extension StringProtocol {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
