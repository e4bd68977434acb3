/// Renders help pages from the command table: NAME, USAGE, DESCRIPTION, SUBCOMMANDS (COMMANDS
/// at the top, in table order), ARGUMENTS, OPTIONS, GLOBAL OPTIONS (at the top), EXAMPLES, at
/// the top EXIT STATUS, ENVIRONMENT and FILES (from `ManualFacts`), and a pointer to more help,
/// wrapped to `width` columns. It reads only data, never `run` closures. The man pages
/// (`ManPageRenderer`) show the same texts.
public struct HelpRenderer: Sendable {
    /// The column limit.
    public var width: Int
    /// Where descriptions start in two-column lists.
    public var descriptionColumn: Int

    /// A renderer for the given width.
    public init(width: Int = 80, descriptionColumn: Int = 28) {
        self.width = width
        self.descriptionColumn = descriptionColumn
    }

    /// The help page of `spec`.
    /// - Parameters:
    ///   - spec: the command (or the root command, whose options are the global options).
    ///   - path: the words that invoke it, starting with the program name: `["cloudsync", "zone"]`.
    ///   - full: for the root, the whole page (`help -a`, as the man page): description, global
    ///     options, exit status, environment and files. Without it the root page is short, as
    ///     git's: the command families and the most used commands (its examples).
    ///   - extra: sections added before the footer (`help -a`'s plugins).
    public func render(_ spec: CommandSpec, path: [String], full: Bool = false,
                       extra: [(String, [String])] = []) -> String {
        let isRoot = path.count <= 1
        let brief = isRoot && !full
        let command = path.joined(separator: " ")
        var lines: [String] = []
        func section(_ title: String, _ body: [String]) {
            guard !body.isEmpty else { return }
            if !lines.isEmpty { lines.append("") }
            lines.append(title)
            lines += body
        }

        let name = spec.abstract.isEmpty ? command : command + " - " + spec.abstract
        section("NAME", TextWrapper.wrap(name, width: width, indent: 6, firstIndent: 2))

        let usage = UsageFormatter(width: width).forms(for: spec, path: path, prefixWidth: 2)
        section("USAGE", usage.flatMap { $0.map { "  " + $0 } })

        if !spec.discussion.isEmpty && !brief {
            section("DESCRIPTION", TextWrapper.wrapParagraphs(spec.discussion, width: width, indent: 2))
        }

        let subcommands = spec.visibleSubcommands
        section(isRoot ? "COMMANDS" : "SUBCOMMANDS",
                TextWrapper.twoColumns(subcommands.map { ($0.name, $0.abstract) },
                                       column: brief ? Self.briefCommandColumn : descriptionColumn, width: width))

        section("ARGUMENTS", TextWrapper.twoColumns(spec.arguments.map { (UsageFormatter.argumentWord($0), Self.argumentHelp($0)) },
                                                    column: descriptionColumn, width: width))

        if !brief { section(isRoot ? "GLOBAL OPTIONS" : "OPTIONS", optionRows(spec.visibleOptions)) }

        if !spec.examples.isEmpty {
            var body: [String] = []
            for (number, example) in spec.examples.enumerated() {
                if number > 0 { body.append("") }
                body.append("  $ " + example.command)
                body += TextWrapper.wrap(example.explanation, width: width, indent: 6)
            }
            section("EXAMPLES", body)
        }

        if isRoot && !brief {
            // The program-wide facts, as the man pages show them (ManualFacts).
            for (title, entries) in [("EXIT STATUS", ManualFacts.exitStatuses), ("ENVIRONMENT", ManualFacts.environment),
                                     ("FILES", ManualFacts.files)] {
                section(title, TextWrapper.twoColumns(entries.map { ($0.term, $0.text) }, column: descriptionColumn,
                                                      width: width))
            }
        }

        for (title, body) in extra { section(title, body) }

        lines.append("")
        if brief {
            lines += TextWrapper.wrap("See '\(command) help <command>' to read about a command, and '\(command) help -a' (or 'man \(command)') for the global options, plugins, exit statuses, environment and files.",
                                      width: width, indent: 0)
        } else if isRoot {
            lines += TextWrapper.wrap("See '\(command) help <command>' to read about a command.", width: width, indent: 0)
        } else {
            let program = path.first ?? Dispatcher.programName
            if !subcommands.isEmpty {
                lines.append("See '\(program) help \(path.dropFirst().joined(separator: " ")) <subcommand>' to read about a subcommand.")
            }
            lines += TextWrapper.wrap("Global options (--account, --json, ...) work here too; see '\(program) --help'.",
                                      width: width, indent: 0)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func optionRows(_ options: [OptionSpec]) -> [String] {
        let anyShort = options.contains { $0.short != nil }
        let rows = options.map { option -> (String, String) in
            var label = option.short.map { "-\($0), " } ?? (anyShort ? "    " : "")
            label += option.flagName
            if let value = option.valueName { label += " <\(value)>" }
            return (label, Self.optionHelp(option))
        }
        return TextWrapper.twoColumns(rows, column: descriptionColumn, width: width)
    }

    /// Where the abstracts start in the short root page's command list: the longest family
    /// name and two spaces, so most abstracts fit on their line.
    static let briefCommandColumn = 17

    /// The help text of an option as help and man pages show it: its sentence, the allowed
    /// values and whether it repeats, each said once (a sentence that already names every
    /// value gets no "One of:"; one that says "(repeatable)" itself gets no "Can be repeated.").
    package static func optionHelp(_ option: OptionSpec) -> String {
        var help = option.help
        if case .values(let allowed) = option.completion { help = withAllowedValues(help, allowed) }
        if option.repeatable && !help.lowercased().contains("repeatable") {
            help += (help.isEmpty ? "" : " ") + "Can be repeated."
        }
        return help
    }

    /// The help text of a positional argument as help and man pages show it.
    package static func argumentHelp(_ argument: ArgumentSpec) -> String {
        var help = argument.help
        if case .values(let allowed) = argument.completion { help = withAllowedValues(help, allowed) }
        return help
    }

    /// `help` and "One of: a, b." unless `help` names every allowed value already.
    static func withAllowedValues(_ help: String, _ allowed: [String]) -> String {
        let words = Set(help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }).map(String.init))
        if !allowed.isEmpty && allowed.allSatisfy(words.contains) { return help }
        return help + (help.isEmpty ? "" : " ") + "One of: " + allowed.joined(separator: ", ") + "."
    }
}
