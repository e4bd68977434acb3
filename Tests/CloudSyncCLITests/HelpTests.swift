import CloudSyncCLI
import CloudSyncSession
import Testing

@Suite struct HelpTests {
    func run(_ arguments: [String]) -> Captured {
        let home = TempDir()
        defer { home.remove() }
        return invoke(Toy.registry(), arguments, environment: baseEnvironment(home: home))
    }

    @Test func topLevelHelp() {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stderr.isEmpty)
            let text = result.stdout
            #expect(text.hasPrefix("NAME\n  cloudsync - CloudKit-style sync for Linux\n"))
            #expect(text.contains("USAGE\n  cloudsync [--account <name>] [--device <name>]"))
            #expect(text.contains("<command>") && text.contains("[<args>]"))
            // Short, as git's: the families and the most used commands (the examples); the
            // global options, exit statuses, environment and files are in 'help -a'.
            #expect(text.contains("COMMANDS\n  zone           Manage record zones\n  echo"))
            #expect(text.contains("EXAMPLES\n  $ cloudsync zone create Notes"))
            #expect(text.contains("$ cloudsync help -a"))
            #expect(text.contains("See 'cloudsync help <command>'") && text.contains("'cloudsync help -a'"))
            #expect(!text.contains("GLOBAL OPTIONS") && !text.contains("EXIT STATUS") && !text.contains("CLOUDSYNC_ACCOUNT"))
        }
        let all = run(["help", "-a"])
        #expect(all.status == 0)
        for part in ["COMMANDS\n  zone                      Manage record zones\n", "GLOBAL OPTIONS\n", "  -q, --quiet ",
                     "      --account <name>", "DESCRIPTION\n", "EXIT STATUS\n", "CLOUDSYNC_ACCOUNT", "FILES\n",
                     "PLUGINS ON $CLOUDSYNC_EXEC_PATH AND $PATH\n"] {
            #expect(all.stdout.contains(part), "help -a lacks \(part)")
        }
    }

    @Test func groupHelp() {
        for arguments in [["zone", "--help"], ["help", "zone"], ["zone", "-h"], ["--help", "zone"]] {
            let result = run(arguments)
            #expect(result.status == 0, "\(arguments)")
            let text = result.stdout
            #expect(text.hasPrefix("NAME\n  cloudsync zone - Manage record zones\n"))
            #expect(text.contains("USAGE\n  cloudsync zone <subcommand> [<args>]\n"))
            #expect(text.contains("DESCRIPTION\n  Zones group records."))
            #expect(text.contains("SUBCOMMANDS\n  create                    Create record zones\n"))
            #expect(text.contains("See 'cloudsync help zone <subcommand>'"))
            #expect(!text.contains("GLOBAL OPTIONS"))
        }
    }

    @Test func leafHelp() {
        for arguments in [["zone", "create", "--help"], ["help", "zone", "create"], ["zone", "create", "-h", "--bogus"],
                          ["zone", "create", "Z", "--help"]] {
            let result = run(arguments)
            #expect(result.status == 0, "\(arguments)")
            let text = result.stdout
            #expect(text.contains("NAME\n  cloudsync zone create - Create record zones\n"))
            #expect(text.contains("USAGE\n  cloudsync zone create [--database <scope>] [--tag <tag> ...]"))
            #expect(text.contains("<zone-name>..."))
            #expect(text.contains("ARGUMENTS\n  <zone-name>...            The zones to create.\n"))
            #expect(text.contains("OPTIONS\n  -d, --database <scope>    The database to use. One of: private, shared,"))
            #expect(text.contains("  -t, --tag <tag>           A tag for the zone. Can be repeated.\n"))
            #expect(text.contains("  -f, --force               Create even if it exists.\n"))
            #expect(!text.contains("secret-knob"))
            #expect(text.contains("EXAMPLES\n  $ cloudsync zone create Notes\n      Create the zone Notes.\n"))
            #expect(text.contains("see 'cloudsync --help'"))
        }
    }

    @Test func helpLinesFitEightyColumns() {
        for arguments in [["--help"], ["zone", "--help"], ["zone", "create", "--help"], ["help", "help"], ["help", "-a"]] {
            for line in run(arguments).stdout.split(separator: "\n") {
                #expect(line.count <= 80, "\(arguments): \(line)")
            }
        }
    }

    @Test func helpForUnknownTopics() {
        let unknown = run(["help", "zoen"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("'zoen' is not a cloudsync command"))
        #expect(unknown.stderr.contains("Did you mean 'zone'?"))

        let unknownSub = run(["help", "zone", "crate"])
        #expect(unknownSub.status == 64)
        #expect(unknownSub.stderr.contains("unknown subcommand 'crate' for 'cloudsync zone'\nDid you mean 'create'?"))
    }

    @Test func helpOfHelp() {
        let result = run(["help", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE\n  cloudsync help [-a | --all] [<command>...]"))
    }

    @Test func rendererIsUsableWithoutTheDispatcher() {
        let spec = CommandSpec(name: "kv", abstract: "Key-value store",
                               options: [OptionSpec("--scope", value: "s", help: "Scope.")],
                               arguments: [ArgumentSpec("key", help: "The key.", optional: true)],
                               run: { _, _ in })
        let text = HelpRenderer(width: 60).render(spec, path: ["cloudsync", "kv"])
        #expect(text.contains("USAGE\n  cloudsync kv [--scope <s>] [<key>]\n"))
        #expect(text.contains("OPTIONS\n  --scope <s>               Scope.\n"))
    }

    @Test func longUsageLinesWrapWithAHangingIndent() {
        let options = (1...5).map { OptionSpec("option-number-\($0)", value: "value", help: "An option.") }
        let spec = CommandSpec(name: "wide", abstract: "Wide", options: options,
                               arguments: [ArgumentSpec("thing", help: "A thing.")], run: { _, _ in })
        let forms = UsageFormatter().forms(for: spec, path: ["cloudsync", "wide"])
        #expect(forms.count == 1)
        let lines = forms[0]
        #expect(lines.count > 1)
        #expect(lines[0].hasPrefix("cloudsync wide [--option-number-1 <value>]"))
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("               [") || $0.hasPrefix("               <") })
        #expect(lines.allSatisfy { $0.count + 2 <= 80 })
    }

    @Test func rootCommandIsIntrospectable() {
        let root = Dispatcher(registry: Toy.registry(), version: "1").rootCommand
        #expect(root.name == "cloudsync")
        #expect(root.options.map(\.long) == ["account", "device", "container", "environment", "cloud", "home", "json", "quiet",
                                             "no-color", "help", "version"])
        #expect(root.subcommands.map(\.name) == ["zone", "echo", "copy", "fail", "secret", "help"])
        #expect(root.descendant(at: ["zone", "create"])?.option(short: "d")?.long == "database")
        #expect(root.descendant(at: ["zone", "create"])?.arguments.first?.completion == .zoneName)
    }

    @Test func registryDiagnostics() {
        #expect(Toy.registry().diagnostics().isEmpty)
        var bad = CommandRegistry()
        bad.register(CommandSpec(name: "x", abstract: "", options: [OptionSpec("json", help: ""),
                                                                      OptionSpec("a", short: "q", help: "")],
                                 run: { _, _ in }))
        bad.register(CommandSpec(name: "x", abstract: "",
                                 arguments: [ArgumentSpec("rest", help: "", repeating: true), ArgumentSpec("last", help: "")],
                                 run: { _, _ in }))
        bad.register(CommandSpec(name: "empty", abstract: ""))
        bad.register(CommandSpec(name: "help", abstract: "", run: { _, _ in }))
        let problems = bad.diagnostics()
        #expect(problems.contains("'x' is registered twice"))
        #expect(problems.contains("'cloudsync x': option --json clashes with a global option"))
        #expect(problems.contains("'cloudsync x': option -q clashes with a global option"))
        #expect(problems.contains("'cloudsync x': repeating argument <rest> must come last"))
        #expect(problems.contains("'cloudsync empty' has neither a run closure nor subcommands"))
        #expect(problems.contains("'help' is a builtin of the dispatcher and cannot be registered"))
    }

    @Test func lazyFamiliesAreBuiltOnlyWhenReached() {
        let built = BuildLog()
        var registry = CommandRegistry()
        registry.register("alpha") { built.note("alpha"); return CommandSpec(name: "alpha", abstract: "A", run: { _, _ in }) }
        registry.register("beta") { built.note("beta"); return CommandSpec(name: "beta", abstract: "B", run: { _, _ in }) }
        registry.register("gamma") { CommandSpec(name: "delta", abstract: "misnamed", run: { _, _ in }) }
        let root = Dispatcher(registry: registry, version: "1").rootCommand
        #expect(built.names.isEmpty, "building the root builds no family")
        #expect(root.subcommand(named: "beta")?.abstract == "B")
        #expect(built.names == ["beta"], "looking one up builds only that one")
        #expect(root.subcommands.map(\.name) == ["alpha", "beta", "delta", "help"])
        #expect(registry.diagnostics() == ["'gamma' is registered with a spec named 'delta'"])
        var nested = CommandRegistry()
        nested.register(CommandSpec(name: "family", abstract: "F", registered: [
            .init(name: "one") { CommandSpec(name: "one", abstract: "1", run: { _, _ in }) },
            .init(name: "two") { CommandSpec(name: "deux", abstract: "2", run: { _, _ in }) },
        ]))
        #expect(nested.diagnostics() == ["'cloudsync family': subcommand 'two' is registered with a spec named 'deux'"])
    }
}

/// Records which lazily registered families were built.
final class BuildLog: @unchecked Sendable {
    private(set) var names: [String] = []
    func note(_ name: String) { names.append(name) }
}
