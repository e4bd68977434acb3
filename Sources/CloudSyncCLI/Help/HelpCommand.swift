/// The builtin `help` command: `cloudsync help [-a] [<command>...]`.
package enum HelpCommand {
    package static let name = "help"

    /// `help --json`: a command's page, or with -a the list of commands and plugins.
    static let jsonOutput = JSONOutput.document("A command's help page as data; with -a, every command and plugin.", [
        ("?command", "The command's words."), ("?abstract", "Its one-line summary."), ("?discussion", "Its description."),
        ("?usage", "Its usage forms."), ("?subcommands", "[{name, abstract}]."),
        ("?options", "[{name, short, value, repeatable, help}]."), ("?arguments", "[{name, optional, repeating, help}]."),
        ("?examples", "[{command, explanation}]."), ("?jsonOutput", "What it prints with --json: {form, summary, keys}, or null."),
        ("?commands", "With -a: [{name, abstract}] of the builtin commands."), ("?plugins", "With -a: [{name, path}]."),
    ])
    static let topicArgument = "command"

    static func spec(run: @escaping CommandSpec.Run) -> CommandSpec {
        CommandSpec(
            name: name,
            abstract: "Show help for cloudsync or one of its commands.",
            discussion: """
                With a command (and subcommand), shows its help page, like '--help' after it does. \
                For a plugin, runs 'cloudsync-<command> --help'. With -a, lists the builtin commands \
                and the plugins found on $CLOUDSYNC_EXEC_PATH and $PATH.
                """,
            options: [
                OptionSpec("all", short: "a", help: "List builtin commands and plugins."),
            ],
            arguments: [
                ArgumentSpec(topicArgument, help: "The command (and subcommands) to explain.", optional: true,
                             repeating: true),
            ],
            examples: [
                Example("cloudsync help zone create", "Explain 'cloudsync zone create'."),
                Example("cloudsync help -a", "List every command, plugins included."),
            ],
            jsonOutput: jsonOutput,
            run: run)
    }
}

extension Invocation {
    /// Prints the help page of `topic` (command words) to stdout, or lists every command with
    /// `all`. A plugin's help is its `--help`, run with the context resolved from `overrides`
    /// exported as for any plugin run. Returns the exit status.
    func showHelp(topic: [String], all: Bool, overrides: SettingsOverrides) -> Int32 {
        if all {
            listAll()
            return 0
        }
        var spec = root
        var path = [Dispatcher.programName]
        for (position, word) in topic.enumerated() {
            if let next = spec.subcommand(named: word) {
                spec = next
                path.append(word)
                continue
            }
            if position == 0 {
                if let plugin = PluginLocator(environment: environment).find(word) {
                    let settings: Settings
                    do {
                        settings = try resolveSettings(overrides)
                    } catch {
                        return reporter.report(error, usage: nil)
                    }
                    return runChild(plugin, name: word, arguments: ["--help"],
                                    environment: settings.pluginEnvironment(base: environment))
                }
                return unknownCommand(word)
            }
            var message = "unknown subcommand '\(word)' for '\(path.joined(separator: " "))'"
            if let hint = Suggestions.didYouMean(word, among: spec.visibleSubcommands.map(\.name)) {
                message += "\n" + hint
            }
            return reporter.report(CLIError.usage(message), usage: (spec, path))
        }
        if output.isJSON {
            output.json(HelpJSON.render(spec, path: path))
        } else {
            Pager.show(.text(HelpRenderer().render(spec, path: path)), output: output, environment: environment)
        }
        return 0
    }

    /// `help -a`: the whole root page (every command, the global options, exit statuses,
    /// environment and files, as `man cloudsync`) and the plugins; as JSON the commands and
    /// plugins.
    private func listAll() {
        let builtins = root.visibleSubcommands
        let plugins = PluginLocator(environment: environment).all().filter { root.subcommand(named: $0.name) == nil }
        if output.isJSON {
            output.json(.object([
                ("commands", .array(builtins.map { .object([("name", .string($0.name)), ("abstract", .string($0.abstract))]) })),
                ("plugins", .array(plugins.map { .object([("name", .string($0.name)), ("path", .string($0.path))]) })),
            ]))
            return
        }
        let renderer = HelpRenderer()
        let pluginLines = plugins.isEmpty ? ["  (none)"]
            : TextWrapper.twoColumns(plugins.map { (TerminalEscaping.escapeValue($0.name), TerminalEscaping.escapeValue($0.path)) },
                                     column: renderer.descriptionColumn, width: renderer.width)
        let page = renderer.render(root, path: [Dispatcher.programName], full: true,
                                   extra: [("PLUGINS ON $CLOUDSYNC_EXEC_PATH AND $PATH", pluginLines)])
        Pager.show(.text(page), output: output, environment: environment)
    }
}
