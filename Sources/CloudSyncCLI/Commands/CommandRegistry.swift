/// The table of builtin commands. The executable registers each command module's spec; the
/// dispatcher, help, REPL and generators all read `commands`.
///
/// A family can be registered by name with a builder: its spec is then built only when a
/// command line reaches it (or help, completion or the generators list everything), so a
/// one-shot command such as `otp code` does not build every other family's table at start-up.
public struct CommandRegistry: Sendable {
    /// One top-level command: its name, and how to get its spec.
    public struct Entry: Sendable {
        /// The word typed on the command line.
        public let name: String
        /// Builds (or returns) the spec; its name must be `name`.
        public let build: @Sendable () -> CommandSpec

        /// A command by name, built by `build` when first needed.
        public init(name: String, build: @escaping @Sendable () -> CommandSpec) {
            self.name = name
            self.build = build
        }
    }

    /// The top-level commands in registration order, as names and builders.
    public private(set) var entries: [Entry] = []

    /// The top-level commands in registration order (every lazily registered one is built).
    public var commands: [CommandSpec] { entries.map { $0.build() } }

    /// An empty registry.
    public init() {}

    /// Adds a top-level command. Registering a name twice keeps the first one and is reported
    /// by `diagnostics()`.
    public mutating func register(_ spec: CommandSpec) {
        entries.append(Entry(name: spec.name, build: { spec }))
    }

    /// Adds a top-level command by name, built on first use: `register("zone") { ZoneCommand.spec }`
    /// (a `static let` spec is then built once, when first read). `diagnostics()` reports a
    /// builder whose spec has another name.
    public mutating func register(_ name: String, _ build: @escaping @Sendable () -> CommandSpec) {
        entries.append(Entry(name: name, build: build))
    }

    /// The top-level command called `name`, hidden ones included; only that one is built.
    public func command(named name: String) -> CommandSpec? {
        entries.first { $0.name == name }?.build()
    }

    /// Mistakes in the table, one human sentence each: duplicate names, options that clash with
    /// each other or with the global options, argument lists the parser cannot bind, empty groups.
    /// A test of the real table should assert that this is empty.
    public func diagnostics() -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for entry in entries {
            let spec = entry.build()
            if spec.name != entry.name {
                problems.append("'\(entry.name)' is registered with a spec named '\(spec.name)'")
            }
            if !seen.insert(spec.name).inserted {
                problems.append("'\(spec.name)' is registered twice")
            }
            if spec.name == HelpCommand.name {
                problems.append("'help' is a builtin of the dispatcher and cannot be registered")
            }
            check(spec, path: [Dispatcher.programName, spec.name], into: &problems)
        }
        return problems
    }

    private func check(_ spec: CommandSpec, path: [String], into problems: inout [String]) {
        let where_ = "'" + path.joined(separator: " ") + "'"
        if !CommandRegistry.isValidCommandName(spec.name) {
            problems.append("\(where_): '\(spec.name)' is not a valid command name")
        }
        if spec.run == nil && spec.subcommands.isEmpty {
            problems.append("\(where_) has neither a run closure nor subcommands")
        }
        var longs: Set<String> = []
        var shorts: Set<Character> = []
        for option in spec.options {
            if option.long.isEmpty || option.long.contains("=") || option.long.contains(" ") {
                problems.append("\(where_): '\(option.long)' is not a valid option name")
            }
            if !longs.insert(option.long).inserted {
                problems.append("\(where_): option --\(option.long) is declared twice")
            }
            if GlobalOptions.option(long: option.long) != nil {
                problems.append("\(where_): option --\(option.long) clashes with a global option")
            }
            if let short = option.short {
                if !shorts.insert(short).inserted {
                    problems.append("\(where_): option -\(short) is declared twice")
                }
                if GlobalOptions.option(short: short) != nil {
                    problems.append("\(where_): option -\(short) clashes with a global option")
                }
                if short == "-" || short == "=" || short.isWhitespace {
                    problems.append("\(where_): '-\(short)' is not a valid short option")
                }
            }
        }
        var sawOptional = false
        for (index, argument) in spec.arguments.enumerated() {
            if argument.repeating && index != spec.arguments.count - 1 {
                problems.append("\(where_): repeating argument <\(argument.name)> must come last")
            }
            if argument.optional {
                sawOptional = true
            } else if sawOptional {
                problems.append("\(where_): required argument <\(argument.name)> follows an optional one")
            }
        }
        if !spec.subcommands.isEmpty && !spec.arguments.isEmpty {
            problems.append("\(where_) has both subcommands and positional arguments")
        }
        var names: Set<String> = []
        let subcommands = spec.subcommands
        for (declared, sub) in zip(spec.declaredSubcommandNames, subcommands) where declared != sub.name {
            problems.append("\(where_): subcommand '\(declared)' is registered with a spec named '\(sub.name)'")
        }
        for sub in subcommands {
            if !names.insert(sub.name).inserted {
                problems.append("\(where_): subcommand '\(sub.name)' is declared twice")
            }
            check(sub, path: path + [sub.name], into: &problems)
        }
    }

    /// A command name is a non-empty word of letters, digits, `-` and `_`, not starting with `-`.
    static func isValidCommandName(_ name: String) -> Bool {
        guard let first = name.first, first != "-" else { return false }
        return name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" }
    }
}
