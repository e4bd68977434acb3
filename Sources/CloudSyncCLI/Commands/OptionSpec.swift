/// One `--long` option (or boolean flag) of a command, as the parser, help, man pages and shell
/// completions see it.
public struct OptionSpec: Sendable, Hashable {
    /// The long name without dashes: `database` for `--database`.
    public let long: String
    /// The one-letter form, `d` for `-d`, if any.
    public let short: Character?
    /// The name of the value shown in help (`scope` in `--database <scope>`); nil for a boolean flag.
    public let valueName: String?
    /// One or two sentences for help.
    public var help: String { helpSource.text }
    /// Where `help` comes from: given, or put together from a setting when it is shown.
    let helpSource: OptionHelp
    /// Whether giving the option several times is meaningful (all values are kept in order).
    public let repeatable: Bool
    /// What to complete for the value.
    public let completion: CompletionKind
    /// Hidden options are accepted but not listed in help or completions.
    public let hidden: Bool

    /// Describes an option.
    /// - Parameters:
    ///   - long: the long name; leading dashes are ignored (`"database"` and `"--database"` are the same).
    ///   - short: the one-letter form, if any.
    ///   - value: the value name shown in help; nil makes the option a boolean flag.
    ///   - help: one or two sentences for help.
    ///   - repeatable: whether the option may be given several times.
    ///   - completion: what to complete for the value.
    ///   - hidden: accept the option but leave it out of help and completions.
    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String,
                repeatable: Bool = false, completion: CompletionKind = .none, hidden: Bool = false) {
        var name = Substring(long)
        while name.first == "-" { name = name.dropFirst() }
        self.init(long: String(name), short: short, value: value, helpSource: .text(help), repeatable: repeatable,
                  completion: completion, hidden: hidden)
    }

    /// An option whose help is put together only when shown (the global options of the settings
    /// table are built at every start and their help read only by help, man pages and completion).
    init(long: String, short: Character?, value: String?, helpSource: OptionHelp, repeatable: Bool = false,
         completion: CompletionKind = .none, hidden: Bool = false) {
        self.long = long
        self.short = short
        self.valueName = value
        self.helpSource = helpSource
        self.repeatable = repeatable
        self.completion = completion
        self.hidden = hidden
    }

    /// True when the option takes a value; false for a boolean flag.
    public var takesValue: Bool { valueName != nil }

    /// The option as typed on the command line, `--database`.
    public var flagName: String { "--" + long }
}
