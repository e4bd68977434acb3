@testable import CloudSyncCLI
import Testing

/// A command that asks its `ParsedArguments` for an option or argument it does not declare
/// (`value("ouptut")` for `--output`) is caught in a debug build instead of reading nil for ever.
@Suite("Look-ups of undeclared options")
struct DeclaredOptionCheckTests {
    static func parsed() -> ParsedArguments {
        let export = CommandSpec(name: "export", abstract: "Export.",
                                 options: [OptionSpec("output", short: "o", value: "FILE", help: "Where.")],
                                 arguments: [ArgumentSpec("file", help: "The file.", optional: true)],
                                 run: { _, _ in })
        let root = CommandSpec(name: "tool", abstract: "A tool.", options: [OptionSpec("json", help: "JSON.")],
                               subcommands: [export])
        let outcome = CommandLineParser(root: root).parse(["export", "--output", "out.txt"])
        return outcome.parsedArguments(bound: ["file": []])
            .declaring(options: root.options + outcome.path.flatMap(\.options), arguments: export.arguments)
    }

    @Test func declaredNamesAreKnownAndReadAsBefore() {
        let arguments = Self.parsed()
        #expect(arguments.declares("output") && arguments.declares("json") && arguments.declares("file"))
        #expect(!arguments.declares("ouptut"))
        #expect(arguments.value("output") == "out.txt")
        #expect(!arguments.flag("json"))
        #expect(arguments.argument("file") == nil)
    }

    @Test func argumentsBuiltByHandAreNotChecked() {
        #expect(ParsedArguments(values: ["output": ["x"]]).declares("anything"))
    }

    @Test func aTypoInALookUpTrapsInADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            _ = DeclaredOptionCheckTests.parsed().value("ouptut")
        }
    }
}
