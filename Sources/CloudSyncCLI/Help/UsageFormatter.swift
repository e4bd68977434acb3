/// The USAGE lines of a command, generated from its spec: `cloudsync zone create
/// [--database <scope>] <zone-name>...`. Long lines wrap with a hanging indent.
public struct UsageFormatter: Sendable {
    /// The column limit.
    public var width: Int
    /// More visible options than this collapse to `[<options>]`.
    public var maximumListedOptions: Int

    /// A formatter for the given width.
    public init(width: Int = 80, maximumListedOptions: Int = 6) {
        self.width = width
        self.maximumListedOptions = maximumListedOptions
    }

    /// The usage forms of `spec`, each wrapped into lines (no leading indent).
    /// - Parameters:
    ///   - spec: the command.
    ///   - path: the words that invoke it, starting with the program name.
    ///   - prefixWidth: how many columns precede each form on its first line (for `usage: `).
    public func forms(for spec: CommandSpec, path: [String], prefixWidth: Int = 2) -> [[String]] {
        let command = path.joined(separator: " ")
        let isRoot = path.count == 1
        var forms: [[String]] = []
        if isRoot {
            let words = spec.visibleOptions.map(Self.optionWord) + ["<command>", "[<args>]"]
            forms.append(wrap(command, words, prefixWidth: prefixWidth))
            return forms
        }
        if spec.run != nil {
            forms.append(wrap(command, optionWords(spec) + spec.arguments.map(Self.argumentWord), prefixWidth: prefixWidth))
        }
        if !spec.visibleSubcommands.isEmpty {
            forms.append(wrap(command, ["<subcommand>", "[<args>]"], prefixWidth: prefixWidth))
        }
        if forms.isEmpty { forms.append([command]) }
        return forms
    }

    private func optionWords(_ spec: CommandSpec) -> [String] {
        let options = spec.visibleOptions
        if options.count > maximumListedOptions { return ["[<options>]"] }
        return options.map(Self.optionWord)
    }

    /// `[--json]`, `[-q | --quiet]`, `[--database <scope>]`, `[--tag <tag> ...]`.
    static func optionWord(_ option: OptionSpec) -> String {
        var word = option.flagName
        if let short = option.short, !option.takesValue { word = "-\(short) | " + word }
        if let value = option.valueName { word += " <\(value)>" }
        if option.repeatable { word += " ..." }
        return "[" + word + "]"
    }

    /// `<name>`, `[<name>]`, `<name>...`, `[<name>...]`.
    package static func argumentWord(_ argument: ArgumentSpec) -> String {
        let word = "<\(argument.name)>" + (argument.repeating ? "..." : "")
        return argument.optional ? "[" + word + "]" : word
    }

    /// Lays out `command word word …`, continuation lines aligned after the command.
    private func wrap(_ command: String, _ words: [String], prefixWidth: Int) -> [String] {
        var lines: [String] = []
        var line = command
        let hang = String(repeating: " ", count: min(command.count + 1, width / 2))
        var column = prefixWidth + line.count
        var lineHasWord = false
        for word in words {
            if lineHasWord && column + 1 + word.count > width {
                lines.append(line)
                line = hang + word
                column = prefixWidth + line.count
                continue
            }
            line += " " + word
            column += 1 + word.count
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}
