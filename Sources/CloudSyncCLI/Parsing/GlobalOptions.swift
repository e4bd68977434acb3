/// The options every command accepts, before the command name (git style) and anywhere after it:
/// the settings of `SettingSpec.all` that are options, then `--help` and `--version`.
public enum GlobalOptions {
    /// The global options, in help order.
    public static let all: [OptionSpec] = SettingSpec.all.compactMap(\.option) + [
        OptionSpec("help", short: "h", help: "Show help for cloudsync or the command."),
        OptionSpec("version", help: "Print the version of cloudsync."),
    ]

    /// The global option with this long name (without dashes).
    public static func option(long: String) -> OptionSpec? { all.first { $0.long == long } }

    /// The global option with this one-letter name.
    public static func option(short: Character) -> OptionSpec? { all.first { $0.short == short } }
}
