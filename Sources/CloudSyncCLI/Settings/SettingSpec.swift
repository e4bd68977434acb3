/// One setting of the command suite: its global option (if any), environment variable, config
/// key, default and help. `SettingSpec.all` is the one table the global options
/// (`GlobalOptions.all`), settings resolution (flag > environment > config file > default), the
/// config file's keys, the plugin exports and the manual's ENVIRONMENT section are made from,
/// so a setting is documented everywhere it is read by construction.
public struct SettingSpec: Sendable {
    /// A setting with a value, or an on/off flag.
    public enum Kind: Sendable, Hashable {
        /// `--name <placeholder>`.
        case value(placeholder: String)
        /// `--name`; its variable is on when set to anything but empty or `0`.
        case flag
    }

    /// The setting's name (its option's long name when it has one).
    public var name: String
    /// A value or a flag.
    public var kind: Kind
    /// Whether it is a global option (`--name`), or read only from the environment (and config).
    public var isOption: Bool
    /// The option's one-letter form.
    public var short: Character?
    /// The environment variable, if any.
    public var variable: String?
    /// The config file key, if any.
    public var configKey: String?
    /// The default, as the help says it (`'default'`, `the short host name`), if any.
    public var defaultText: String?
    /// What the option does (one sentence, for help).
    public var help: String
    /// What the variable does, for the ENVIRONMENT section (defaults to `help`).
    public var variableHelp: String
    /// Completion of the option's value.
    public var completion: CompletionKind
    /// Whether plugins (`cloudsync-<name>`) get it in their environment.
    public var exported: Bool

    /// A setting; see the properties.
    public init(_ name: String, _ kind: Kind, isOption: Bool = true, short: Character? = nil, variable: String? = nil,
                configKey: String? = nil, defaultText: String? = nil, help: String, variableHelp: String? = nil,
                completion: CompletionKind = .none, exported: Bool = false) {
        self.name = name
        self.kind = kind
        self.isOption = isOption
        self.short = short
        self.variable = variable
        self.configKey = configKey
        self.defaultText = defaultText
        self.help = help
        self.variableHelp = variableHelp ?? help
        self.completion = completion
        self.exported = exported
    }

    /// The global option; its help, with the variable and default appended, is put together
    /// when it is shown (`OptionHelp.setting`), since the options are built at every start.
    public var option: OptionSpec? {
        guard isOption else { return nil }
        let source = OptionHelp.setting(help: help, variable: variable, defaultText: defaultText)
        switch kind {
        case .value(let placeholder):
            return OptionSpec(long: name, short: short, value: placeholder, helpSource: source, completion: completion)
        case .flag:
            return OptionSpec(long: name, short: short, value: nil, helpSource: source)
        }
    }

    /// The ENVIRONMENT entry: the variable and what it does (with the option, config key and
    /// default it goes with).
    public var manualEntry: ManualFacts.Entry? {
        guard let variable else { return nil }
        var notes: [String] = []
        if isOption { notes.append("--" + name + " wins over it") }
        if let configKey { notes.append("config key " + configKey) }
        if let defaultText { notes.append("default " + defaultText) }
        return ManualFacts.Entry(term: variable, text: OptionHelp.sentence(variableHelp, notes: notes))
    }

    /// Whether a flag's variable is on in `environment`: set, not empty and not `0`.
    public func isOn(in environment: [String: String]) -> Bool {
        guard let variable, let value = environment[variable] else { return false }
        return !value.isEmpty && value != "0"
    }
}
