/// Splits a command line into the command path, options and positionals, walking the command
/// table from the root. The root's options are the global options; they are accepted at every
/// level, before and after the command name. A level's own options are accepted after its name.
///
/// The parser never stops at the first mistake: it records the first error and reads on, so
/// that `--help` later on the line still finds its command.
struct CommandLineParser {
    /// What the parser found.
    struct Outcome {
        /// The commands below the root, outermost first.
        var path: [CommandSpec] = []
        var flags: [String: Int] = [:]
        var values: [String: [String]] = [:]
        var positionals: [String] = []
        /// A first word that is not a builtin (a plugin, or a mistake).
        var unresolvedCommand: String?
        /// Everything after `unresolvedCommand`, untouched (the plugin's arguments).
        var remaining: [String] = []
        /// The first mistake on the line.
        var error: CLIError?

        var names: [String] { path.map(\.name) }
        func flag(_ long: String) -> Bool { (flags[long] ?? 0) > 0 }

        /// The result as `ParsedArguments`; `path` overrides the command path (for the REPL
        /// that a bare `cloudsync` runs).
        func parsedArguments(bound: [String: [String]], path: [String]? = nil) -> ParsedArguments {
            ParsedArguments(commandPath: path ?? names, flagCounts: flags, values: values, arguments: bound)
        }
    }

    let root: CommandSpec

    func parse(_ tokens: [String]) -> Outcome {
        var run = Run(root: root, tokens: tokens)
        run.parse()
        return run.outcome
    }

    /// The state of one parse.
    private struct Run {
        let root: CommandSpec
        let tokens: [String]
        var index = 0
        var outcome = Outcome()
        var current: CommandSpec

        init(root: CommandSpec, tokens: [String]) {
            self.root = root
            self.tokens = tokens
            self.current = root
        }

        mutating func parse() {
            var endOfOptions = false
            while index < tokens.count {
                let token = tokens[index]
                index += 1
                if !endOfOptions {
                    if token == "--" {
                        endOfOptions = true
                        continue
                    }
                    if token.hasPrefix("--") {
                        parseLong(token)
                        continue
                    }
                    if token.hasPrefix("-") && token.count > 1 && !isNegativeNumberPositional(token) {
                        parseShortCluster(token)
                        continue
                    }
                }
                if outcome.path.isEmpty {
                    if let command = root.subcommand(named: token) {
                        descend(into: command)
                        endOfOptions = false
                        continue
                    }
                    outcome.unresolvedCommand = token
                    outcome.remaining = Array(tokens[index...])
                    return
                }
                if !endOfOptions && outcome.positionals.isEmpty && current.hasSubcommands {
                    if let command = current.subcommand(named: token) {
                        descend(into: command)
                        continue
                    }
                    if current.arguments.isEmpty {
                        let names = current.visibleSubcommands.map(\.name)
                        var message = "unknown subcommand '\(token)' for '\(commandLine)'"
                        if let hint = Suggestions.didYouMean(token, among: names) { message += "\n" + hint }
                        fail(.usage(message))
                    }
                }
                outcome.positionals.append(token)
            }
        }

        private var commandLine: String {
            ([Dispatcher.programName] + outcome.names).joined(separator: " ")
        }

        private mutating func descend(into command: CommandSpec) {
            outcome.path.append(command)
            current = command
        }

        private mutating func fail(_ error: CLIError) {
            if outcome.error == nil { outcome.error = error }
        }

        // MARK: options

        private func lookup(long: String) -> OptionSpec? {
            if outcome.path.isEmpty { return root.option(long: long) }
            return current.option(long: long) ?? root.option(long: long)
        }

        private func lookup(short: Character) -> OptionSpec? {
            if outcome.path.isEmpty { return root.option(short: short) }
            return current.option(short: short) ?? root.option(short: short)
        }

        private var knownLongNames: [String] {
            let own = outcome.path.isEmpty ? [] : current.visibleOptions.map(\.long)
            return (own + root.visibleOptions.map(\.long)).map { "--" + $0 }
        }

        private mutating func parseLong(_ token: String) {
            let body = token.dropFirst(2)
            let name: Substring
            let inline: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                inline = String(body[body.index(after: equals)...])
            } else {
                name = body
                inline = nil
            }
            guard !name.isEmpty else {
                fail(.usage("invalid option '\(token)'"))
                return
            }
            guard let spec = lookup(long: String(name)) else {
                unknownOption("--" + name)
                return
            }
            if spec.takesValue {
                if let inline {
                    record(spec, inline)
                } else {
                    takeNextValue(for: spec, as: "--" + spec.long)
                }
            } else if inline != nil {
                fail(.usage("option '--\(spec.long)' is a flag and takes no value"))
            } else {
                outcome.flags[spec.long, default: 0] += 1
            }
        }

        private mutating func parseShortCluster(_ token: String) {
            let letters = Array(token.dropFirst())
            var position = 0
            while position < letters.count {
                let letter = letters[position]
                position += 1
                guard let spec = lookup(short: letter) else {
                    if letters.count > 1, lookup(long: String(letters)) != nil {
                        fail(.usage("unknown option '-\(letter)' in '\(token)'\nDid you mean '-\(token)'?"))
                    } else {
                        unknownOption("-" + String(letter))
                    }
                    return
                }
                if spec.takesValue {
                    if position < letters.count {
                        record(spec, String(letters[position...]))
                    } else {
                        takeNextValue(for: spec, as: "-" + String(letter))
                    }
                    return
                }
                outcome.flags[spec.long, default: 0] += 1
            }
        }

        private mutating func unknownOption(_ typed: String) {
            var message = "unknown option '\(typed)'"
            if let hint = Suggestions.didYouMean(typed, among: knownLongNames) { message += "\n" + hint }
            fail(.usage(message))
        }

        /// Takes the next token as the option's value, as getopt does for a required argument,
        /// so `--sort -count` works. Only `--` or a known long option (`--zone --json`) counts
        /// as a missing value.
        private mutating func takeNextValue(for spec: OptionSpec, as typed: String) {
            if index < tokens.count {
                let next = tokens[index]
                let name = next.hasPrefix("--") ? String(next.dropFirst(2).prefix { $0 != "=" }) : nil
                let isOption = next == "--" || name.map { knownLongNames.contains($0) || knownLongNames.contains("--" + $0) } == true
                if !isOption {
                    index += 1
                    record(spec, next)
                    return
                }
            }
            let valueName = spec.valueName ?? "value"
            fail(.usage("option '\(typed)' needs a value <\(valueName)>"))
        }

        private mutating func record(_ spec: OptionSpec, _ value: String) {
            if case .values(let allowed) = spec.completion, !allowed.contains(value) {
                fail(.usage(Self.notAllowed(value, for: "--" + spec.long, allowed: allowed)))
            }
            outcome.values[spec.long, default: []].append(value)
        }

        /// `-5` is a positional unless a known short option is a digit.
        private func isNegativeNumberPositional(_ token: String) -> Bool {
            guard Self.isNegativeNumber(token) else { return false }
            let options = outcome.path.isEmpty ? root.options : current.options + root.options
            return !options.contains { $0.short?.isNumber ?? false }
        }

        /// `-5`, `-3.25`, `-.5`.
        static func isNegativeNumber(_ token: String) -> Bool {
            guard token.first == "-" else { return false }
            let body = token.dropFirst()
            var digits = 0
            var dots = 0
            for c in body {
                if c.isASCII && c.isNumber {
                    digits += 1
                } else if c == "." {
                    dots += 1
                } else {
                    return false
                }
            }
            return digits > 0 && dots <= 1 && body.last != "."
        }

        static func notAllowed(_ value: String, for what: String, allowed: [String]) -> String {
            var message = "invalid value '\(value)' for \(what): expected " + allowed.map { "'\($0)'" }.joined(separator: ", ")
            if let hint = Suggestions.didYouMean(value, among: allowed) { message += "\n" + hint }
            return message
        }
    }
}
