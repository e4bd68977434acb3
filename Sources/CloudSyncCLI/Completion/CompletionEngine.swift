/// Completes a partly typed command line from the command table: commands, subcommands,
/// options, the closed value sets of `.values`, file paths (`.files`), and live values (zone
/// names, record types, …) from a `LiveValueSource`. The REPL's tab completion and the hidden
/// `cloudsync __complete` entry point of the shell scripts both use it.
public struct CompletionEngine: Sendable {
    /// The whole command table (`Dispatcher.rootCommand`).
    public var root: CommandSpec
    /// Top-level words known besides the table (the REPL's `use` and `exit`).
    public var extraCommands: [CommandSpec]
    /// Where live values come from.
    public var liveValues: LiveValueSource
    /// The environment the context of live values is resolved from (with the line's global
    /// options on top). Plugins are searched on its `CLOUDSYNC_EXEC_PATH` and `PATH`.
    public var environment: [String: String]

    /// An engine over `root`.
    public init(root: CommandSpec, extraCommands: [CommandSpec] = [], liveValues: LiveValueSource = LiveValueSource(),
                environment: [String: String] = [:]) {
        self.root = root
        self.extraCommands = extraCommands
        self.liveValues = liveValues
        self.environment = environment
    }

    /// What to offer for the last of `words` (the words after the program name; the last one is
    /// the word under the cursor, empty after a blank). For `--option=part` the candidates are
    /// the bare values, as shells and readline complete the part after `=`.
    public func complete(_ words: [String]) -> CompletionResult {
        let position = CompletionPosition(root: root, words: words, extraCommands: extraCommands)
        let current = position.current
        if position.unresolvedCommand != nil { return .files }
        if let option = position.pendingOption {
            return values(option.completion, prefix: current, position)
        }
        if !position.endOfOptions && current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            let name = String(current[current.index(current.startIndex, offsetBy: 2)..<equals])
            guard let option = option(long: name, position), option.takesValue else { return .candidates([]) }
            return values(option.completion, prefix: String(current[current.index(after: equals)...]), position)
        }
        if !position.endOfOptions && current.hasPrefix("-") {
            return .candidates(options(position).filter { $0.value.hasPrefix(current) })
        }
        guard let leaf = position.path.last else {
            return .candidates(commands(prefix: current))
        }
        if position.positionals.isEmpty && !leaf.visibleSubcommands.isEmpty && !position.endOfOptions {
            return .candidates(Self.filter(leaf.visibleSubcommands.map { CompletionCandidate($0.name, description: $0.abstract) },
                                           prefix: current))
        }
        if position.names == [HelpCommand.name] {
            return .candidates(helpTopics(after: position.positionals, prefix: current))
        }
        guard let argument = Self.argument(at: position.positionals.count, of: leaf) else { return .candidates([]) }
        return values(argument.completion, prefix: current, position)
    }

    /// The argument spec that the positional at `index` binds to.
    static func argument(at index: Int, of spec: CommandSpec) -> ArgumentSpec? {
        if index < spec.arguments.count { return spec.arguments[index] }
        if let last = spec.arguments.last, last.repeating { return last }
        return nil
    }

    /// Top-level commands, the extra words and plugins starting with `prefix`.
    private func commands(prefix: String) -> [CompletionCandidate] {
        var candidates = root.visibleSubcommands.map { CompletionCandidate($0.name, description: $0.abstract) }
        candidates += extraCommands.filter { !$0.hidden }.map { CompletionCandidate($0.name, description: $0.abstract) }
        let known = Set(candidates.map(\.value))
        for plugin in PluginLocator(environment: environment).all() where !known.contains(plugin.name) {
            candidates.append(CompletionCandidate(plugin.name, description: "plugin " + plugin.path))
        }
        return Self.filter(candidates, prefix: prefix)
    }

    /// `help zone cr<TAB>`: the subcommands of the command named so far.
    private func helpTopics(after words: [String], prefix: String) -> [CompletionCandidate] {
        if words.isEmpty {
            return commands(prefix: prefix).filter { $0.value != HelpCommand.name }
        }
        guard let spec = root.descendant(at: words) else { return [] }
        return Self.filter(spec.visibleSubcommands.map { CompletionCandidate($0.name, description: $0.abstract) },
                           prefix: prefix)
    }

    /// The long options that may still be given at this position: the leaf's own, then the
    /// global ones; options given already are left out unless they repeat.
    private func options(_ position: CompletionPosition) -> [CompletionCandidate] {
        var list: [OptionSpec] = []
        if let leaf = position.path.last { list += leaf.visibleOptions }
        for option in root.visibleOptions {
            if !position.path.isEmpty && option.long == "version" { continue }
            list.append(option)
        }
        var seen: Set<String> = []
        return list.compactMap { option in
            guard seen.insert(option.long).inserted else { return nil }
            let given = position.flags.contains(option.long) || position.optionValues[option.long] != nil
            if given && !option.repeatable { return nil }
            return CompletionCandidate(option.flagName, description: option.help)
        }
    }

    private func option(long: String, _ position: CompletionPosition) -> OptionSpec? {
        if let leaf = position.path.last, let own = leaf.option(long: long) { return own }
        return root.option(long: long)
    }

    /// The values of one kind starting with `prefix`.
    private func values(_ kind: CompletionKind, prefix: String, _ position: CompletionPosition) -> CompletionResult {
        switch kind {
        case .none:
            return .candidates([])
        case .file:
            return .files
        case .values(let allowed):
            return .candidates(Self.filter(allowed.map { CompletionCandidate($0) }, prefix: prefix))
        case .live:
            guard liveValues.provides(kind), let settings = settings(for: position) else { return .candidates([]) }
            let query = LiveValueQuery(kind: kind, commandPath: position.names, arguments: position.parsedArguments,
                                       prefix: prefix, settings: settings, environment: environment)
            return .candidates(liveValues.values(query).filter { $0.hasPrefix(prefix) }.map { CompletionCandidate($0) })
        }
    }

    /// The context of the line: its global options over the environment. Nil if they are invalid.
    private func settings(for position: CompletionPosition) -> Settings? {
        let values = position.optionValues
        let overrides = SettingsOverrides(account: values["account"]?.last, device: values["device"]?.last,
                                          container: values["container"]?.last, cloud: values["cloud"]?.last,
                                          home: values["home"]?.last)
        return try? Settings.resolve(overrides: overrides, environment: environment, stdoutIsTTY: false) { _ in }
    }

    static func filter(_ candidates: [CompletionCandidate], prefix: String) -> [CompletionCandidate] {
        prefix.isEmpty ? candidates : candidates.filter { $0.value.hasPrefix(prefix) }
    }
}
