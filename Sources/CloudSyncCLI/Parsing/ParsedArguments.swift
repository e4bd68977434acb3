/// What the parser found on the command line for one command: its flags, option values and
/// positional arguments, keyed by the long option name (without dashes) or argument name.
/// Global options appear here too, but commands should read them from `CommandContext.settings`.
public struct ParsedArguments: Sendable, Hashable {
    /// The command names from the top, e.g. `["zone", "create"]`.
    public var commandPath: [String]
    private var flagCounts: [String: Int]
    private var optionValues: [String: [String]]
    private var positionals: [String: [String]]

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

    /// True if the boolean flag `--long` was given at least once.
    public func flag(_ long: String) -> Bool { (flagCounts[long] ?? 0) > 0 }

    /// How many times the boolean flag `--long` was given (for `-v -v`).
    public func count(_ long: String) -> Int { flagCounts[long] ?? 0 }

    /// The value of `--long`; the last one when it was given several times.
    public func value(_ long: String) -> String? { optionValues[long]?.last }

    /// Every value of `--long`, in command-line order.
    public func values(_ long: String) -> [String] { optionValues[long] ?? [] }

    /// The positional argument called `name`; for a repeating argument, its first value.
    public func argument(_ name: String) -> String? { positionals[name]?.first }

    /// Every value of the (repeating) positional argument called `name`.
    public func arguments(_ name: String) -> [String] { positionals[name] ?? [] }
}
