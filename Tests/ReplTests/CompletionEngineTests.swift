import CloudSyncCLI
import CloudSyncSession
import Testing

/// The completion engine on a small table of its own.
@Suite struct CompletionEngineTests {
    static let table: CommandSpec = {
        let zone = CommandSpec(name: "zone", abstract: "Zones", subcommands: [
            CommandSpec(name: "create", abstract: "Create zones",
                        options: [OptionSpec("atomic", help: "All or nothing."),
                                  OptionSpec("database", short: "d", value: "scope", help: "The database.",
                                             completion: .values(["private", "shared", "public"])),
                                  OptionSpec("tag", value: "tag", help: "A tag.", repeatable: true),
                                  OptionSpec("secret", help: "Hidden.", hidden: true)],
                        arguments: [ArgumentSpec("name", help: "Zone name.", repeating: true)], run: { _, _ in }),
            CommandSpec(name: "delete", abstract: "Delete zones",
                        options: [OptionSpec("database", value: "scope", help: "The database.",
                                             completion: .values(["private", "shared", "public"]))],
                        arguments: [ArgumentSpec("name", help: "Zone name.", repeating: true, completion: .zoneName)],
                        run: { _, _ in }),
            CommandSpec(name: "hidden", abstract: "Hidden", hidden: true, run: { _, _ in }),
        ])
        let record = CommandSpec(name: "record", abstract: "Records", subcommands: [
            CommandSpec(name: "save", abstract: "Save",
                        options: [OptionSpec("zone", value: "zone", help: "Zone.", completion: .zoneName),
                                  OptionSpec("fields-json", value: "file", help: "Fields.", completion: .file)],
                        arguments: [ArgumentSpec("type", help: "Type.", completion: .recordType),
                                    ArgumentSpec("name", help: "Name.", optional: true, completion: .recordName)],
                        run: { _, _ in }),
        ])
        let help = CommandSpec(name: "help", abstract: "Help",
                               arguments: [ArgumentSpec("command", help: "Topic.", optional: true, repeating: true)],
                               run: { _, _ in })
        return CommandSpec(name: "cloudsync", abstract: "Root",
                           options: [OptionSpec("device", value: "name", help: "Device."),
                                     OptionSpec("home", value: "dir", help: "Home.", completion: .file),
                                     OptionSpec("json", help: "JSON."), OptionSpec("version", help: "Version.")],
                           subcommands: [zone, record, help])
    }()

    /// Every live query the engine made, for assertions.
    final class Log: @unchecked Sendable {
        var queries: [LiveValueQuery] = []
    }

    static func engine(_ log: Log = Log(), environment: [String: String] = ["HOME": "/nonexistent", "PATH": ""])
        -> CompletionEngine {
        let live = LiveValueSource([
            .zoneName: { query in log.queries.append(query); return ["Notes", "Notebook", "Archive"] },
            .recordType: { query in log.queries.append(query); return ["Note", "Task"] },
            .recordName: { _ in throw CLIError.failed("the cloud is down") },
        ])
        return CompletionEngine(root: table, liveValues: live, environment: environment)
    }

    func complete(_ words: String..., log: Log = Log()) -> [String] {
        Self.engine(log).complete(words).values
    }

    @Test func commandsAndSubcommands() {
        #expect(complete("") == ["zone", "record", "help"])
        #expect(complete("z") == ["zone"])
        #expect(complete("zone", "") == ["create", "delete"], "hidden subcommands are not offered")
        #expect(complete("zone", "cr") == ["create"])
        #expect(complete("--device", "x", "zone", "d") == ["delete"], "global options before the command")
        #expect(complete("nope", "") == [])
        #expect(Self.engine().complete(["nope", ""]) == .files, "a plugin's arguments are its own")
    }

    @Test func optionsOwnThenGlobalWithoutRepeats() {
        #expect(complete("zone", "create", "--") == ["--atomic", "--database", "--tag", "--device", "--home", "--json"])
        #expect(complete("zone", "create", "--atomic", "--tag", "x", "--") == ["--database", "--tag", "--device", "--home",
                                                                                "--json"])
        #expect(complete("--") == ["--device", "--home", "--json", "--version"])
        #expect(complete("zone", "create", "--d") == ["--database", "--device"])
    }

    @Test func optionValues() {
        #expect(complete("zone", "create", "--database", "") == ["private", "shared", "public"])
        #expect(complete("zone", "create", "-d", "p") == ["private", "public"])
        #expect(complete("zone", "create", "--database=s") == ["shared"], "bare values after '='")
        #expect(Self.engine().complete(["record", "save", "--fields-json", ""]) == .files)
        #expect(Self.engine().complete(["--home", "/tm"]) == .files)
        #expect(complete("zone", "create", "--tag", "") == [], "free text")
    }

    @Test func liveValuesWithTheLineContext() {
        let log = Log()
        #expect(complete("--device", "phone", "zone", "delete", "--database", "public", "Note", log: log) == ["Notes", "Notebook"])
        let query = log.queries.first
        #expect(query?.kind == .zoneName)
        #expect(query?.commandPath == ["zone", "delete"])
        #expect(query?.settings.device == "phone", "global options on the line choose the context")
        #expect(query?.arguments.value("database") == "public")
        #expect(query?.prefix == "Note")
        #expect(complete("zone", "delete", "Notes", "A") == ["Archive"], "a repeating argument")
        #expect(complete("record", "save", "--zone", "") == ["Notes", "Notebook", "Archive"])
        #expect(complete("record", "save", "T") == ["Task"])
        #expect(complete("record", "save", "Note", "") == [], "a failing provider gives nothing")
        #expect(complete("record", "save", "Note", "n1", "") == [], "no argument left")
    }

    @Test func helpTopicsAndEndOfOptions() {
        #expect(complete("help", "") == ["zone", "record"])
        #expect(complete("help", "zone", "") == ["create", "delete"])
        #expect(complete("zone", "create", "--", "--") == [], "after --, words are arguments")
        #expect(complete("-5") == [])
    }

    @Test func theReplsOwnWords() {
        let engine = CompletionEngine(root: Self.table, extraCommands: ReplInterpreter.sessionCommands)
        #expect(engine.complete(["u"]).values == ["use"])
        #expect(engine.complete(["use", ""]).values == ["account", "device", "container", "environment"])
        #expect(engine.complete(["e"]).values == ["exit"])
    }
}
