/// What the parser found on the command line for one command: its flags, option values and
/// positional arguments, keyed by the long option name (without dashes) or argument name.
/// Global options appear here too, but commands should read them from `CommandContext.settings`.
public struct ParsedArguments: Sendable, Hashable {
    /// The command names from the top, e.g. `["zone", "create"]`.
    public var commandPath: [String]
    private var flagCounts: [String: Int]
    private var optionValues: [String: [String]]
    private var positionals: [String: [String]]
    /// The names the command declares; unchecked for arguments built by hand.
    private var declared = DeclaredNames(nil)

    /// Builds parsed arguments by hand, for unit tests of a command's run closure.
    /// - Parameters:
    ///   - commandPath: the command names from the top.
    ///   - flags: boolean flags that were given (long names).
    ///   - values: every value of each option, in order.
    ///   - arguments: the positional values bound to each argument name.
    public init(commandPath: [String] = [], flags: Set<String> = [], values: [String: [String]] = [:],
                arguments: [String: [String]] = [:]) {
        self.commandPath = commandPath
        self.flagCounts = Dictionary(uniqueKeysWithValues: flags.map { ($0, 1) })
        self.optionValues = values
        self.positionals = arguments
    }

    init(commandPath: [String], flagCounts: [String: Int], values: [String: [String]], arguments: [String: [String]]) {
        self.commandPath = commandPath
        self.flagCounts = flagCounts
        self.optionValues = values
        self.positionals = arguments
    }

    /// These arguments, checked against what the command declares: `options` (the global
    /// options, and those of the command and of the groups above it) and `arguments`. In a
    /// debug build, asking for any other name traps, naming it: `value("ouptut")` would
    /// otherwise read nil for ever, as if the option had not been given.
    func declaring(options: [OptionSpec], arguments: [ArgumentSpec]) -> ParsedArguments {
        var copy = self
        copy.declared = DeclaredNames(Set(options.map(\.long) + arguments.map(\.name)))
        return copy
    }

    /// Whether the command declares the option or argument `name` (always true for arguments
    /// built by hand, which are not checked).
    public func declares(_ name: String) -> Bool { declared.names?.contains(name) ?? true }

    /// `name`, after the debug-build check that the command declares it.
    private func checked(_ name: String) -> String {
        assert(declares(name), "'\(name)' is not an option or argument of '\(commandPath.joined(separator: " "))' (a typo?)")
        return name
    }

    /// True if the boolean flag `--long` was given at least once.
    public func flag(_ long: String) -> Bool { (flagCounts[checked(long)] ?? 0) > 0 }

    /// How many times the boolean flag `--long` was given (for `-v -v`).
    public func count(_ long: String) -> Int { flagCounts[checked(long)] ?? 0 }

    /// The value of `--long`; the last one when it was given several times.
    public func value(_ long: String) -> String? { optionValues[checked(long)]?.last }

    /// The value of `--long` when the command declares it, else nil: for a helper shared by
    /// commands with and without the option (`--owner` of the store commands).
    public func value(ifDeclared long: String) -> String? { declares(long) ? value(long) : nil }

    /// Every value of `--long`, in command-line order.
    public func values(_ long: String) -> [String] { optionValues[checked(long)] ?? [] }

    /// The positional argument called `name`; for a repeating argument, its first value.
    public func argument(_ name: String) -> String? { positionals[checked(name)]?.first }

    /// Every value of the (repeating) positional argument called `name`.
    public func arguments(_ name: String) -> [String] { positionals[checked(name)] ?? [] }
}

/// The option and argument names a command declares, carried by `ParsedArguments` for its
/// debug-build check; not part of the arguments' value (equal and hashed alike whatever they are).
struct DeclaredNames: Sendable, Hashable {
    let names: Set<String>?

    init(_ names: Set<String>?) { self.names = names }

    static func == (lhs: DeclaredNames, rhs: DeclaredNames) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
