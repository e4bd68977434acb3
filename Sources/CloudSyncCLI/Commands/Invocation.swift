/// One run of the dispatcher: parse, then version, help, plugin or builtin command.
struct Invocation {
    let dispatcher: Dispatcher
    let root: CommandSpec
    let environment: [String: String]
    let output: Output
    let isInteractive: Bool

    init(dispatcher: Dispatcher, environment: [String: String], output: Output, isInteractive: Bool) {
        self.dispatcher = dispatcher
        self.root = dispatcher.rootCommand
        self.environment = environment
        self.output = output
        self.isInteractive = isInteractive
    }

    var reporter: ErrorReporter { ErrorReporter(output: output) }

    func run(_ arguments: [String]) -> Int32 {
        // Until the line is parsed, errors are JSON if --json appears at all.
        output.configure(json: arguments.prefix { $0 != "--" }.contains("--json"), quiet: false, color: false)
        let parsed = CommandLineParser(root: root).parse(arguments)
        output.configure(json: parsed.flag("json"), quiet: false, color: false)

        if parsed.flag("version") {
            if output.isJSON {
                output.json(.object([("name", .string(Dispatcher.programName)), ("version", .string(dispatcher.version))]))
            } else {
                output.line("\(Dispatcher.programName) \(dispatcher.version)")
            }
            return ExitCode.ok.rawValue
        }
        if parsed.flag("help") {
            return showHelp(topic: parsed.names + (parsed.unresolvedCommand.map { [$0] } ?? []), all: false,
                            overrides: SettingsOverrides(parsed.parsedArguments(bound: [:])))
        }
        if let error = parsed.error {
            return reporter.report(error, usage: usageContext(parsed.path))
        }
        if let name = parsed.unresolvedCommand {
            return runPlugin(name, parsed)
        }

        var path = parsed.path
        if path.isEmpty {
            // DESIGN §5: a bare `cloudsync` opens the REPL when one is registered.
            guard let repl = root.subcommand(named: "repl"), repl.run != nil else {
                output.writeError(.text(HelpRenderer().render(root, path: [Dispatcher.programName])))
                return ExitCode.usage.rawValue
            }
            path = [repl]
        }
        guard let leaf = path.last else { return ExitCode.internalError.rawValue }
        if path.count == 1 && leaf.name == HelpCommand.name {
            return showHelp(topic: parsed.positionals, all: parsed.flag("all"),
                            overrides: SettingsOverrides(parsed.parsedArguments(bound: [:])))
        }
        guard let body = leaf.run else {
            // A group invoked without its subcommand: git prints usage and fails.
            output.writeError(.text(HelpRenderer().render(leaf, path: [Dispatcher.programName] + path.map(\.name))))
            return ExitCode.usage.rawValue
        }

        let bound: [String: [String]]
        do {
            bound = try ArgumentBinder.bind(parsed.positionals, to: leaf.arguments)
        } catch {
            return reporter.report(error, usage: usageContext(path))
        }
        let arguments = parsed.parsedArguments(bound: bound, path: path.map(\.name))
            .declaring(options: root.options + path.flatMap(\.options), arguments: leaf.arguments)
        let settings: Settings
        do {
            settings = try resolveSettings(arguments)
        } catch {
            return reporter.report(error, usage: nil)
        }
        output.configure(settings)
        let context = CommandContext(settings: settings, output: output, environment: environment,
                                     isInteractive: isInteractive)
        context.dispatcher = dispatcher
        context.commandPath = path.map(\.name)
        defer { context.releaseMemoized() }
        do {
            try body(context, arguments)
            return ExitCode.ok.rawValue
        } catch {
            return reporter.report(error, usage: usageContext(path))
        }
    }

    private func resolveSettings(_ arguments: ParsedArguments) throws(CLIError) -> Settings {
        try resolveSettings(SettingsOverrides(arguments))
    }

    func resolveSettings(_ overrides: SettingsOverrides) throws(CLIError) -> Settings {
        AccountResolution.apply(try Settings.resolve(overrides: overrides, environment: environment,
                                                     stdoutIsTTY: output.isTTY) { output.warning("\($0)") },
                                environment: environment)
    }

    private func usageContext(_ path: [CommandSpec]) -> (CommandSpec, [String])? {
        guard let leaf = path.last else { return nil }
        return (leaf, [Dispatcher.programName] + path.map(\.name))
    }

    // MARK: plugins

    /// Runs `cloudsync-<name>` with the words after it, or reports an unknown command.
    private func runPlugin(_ name: String, _ parsed: CommandLineParser.Outcome) -> Int32 {
        guard let executable = PluginLocator(environment: environment).find(name) else {
            return unknownCommand(name)
        }
        let settings: Settings
        do {
            settings = try resolveSettings(parsed.parsedArguments(bound: [:]))
        } catch {
            return reporter.report(error, usage: nil)
        }
        return runChild(executable, name: name, arguments: parsed.remaining,
                        environment: settings.pluginEnvironment(base: environment))
    }

    /// Runs an executable with our stdout/stderr and returns its status.
    func runChild(_ executable: String, name: String, arguments: [String], environment: [String: String]) -> Int32 {
        output.flush()
        do {
            return try ProcessRunner.run(executable, argv0: PluginLocator.prefix + name, arguments: arguments,
                                         environment: environment, stdout: output.standardOutput,
                                         stderr: output.standardError)
        } catch {
            return reporter.report(CLIError.internalError(error.description), usage: nil)
        }
    }

    /// `cloudsync: error: 'NAME' is not a cloudsync command. See 'cloudsync help -a'.` and a
    /// suggestion: an error like every other, with its prefix.
    func unknownCommand(_ name: String) -> Int32 {
        let program = Dispatcher.programName
        let candidates = root.visibleSubcommands.map(\.name)
            + PluginLocator(environment: environment).all().map(\.name)
        let hint = Suggestions.didYouMean(name, among: candidates)
        if output.isJSON {
            let reason = "'\(name)' is not a \(program) command. See '\(program) help -a'."
            output.jsonError(CLIError.usage(reason + (hint.map { "\n" + $0 } ?? "")).jsonDocument)
        } else {
            output.error("'\(name)' is not a \(program) command. See '\(program) help -a'.")
            if let hint { output.writeError("\(hint)\n") }
        }
        return ExitCode.usage.rawValue
    }
}
