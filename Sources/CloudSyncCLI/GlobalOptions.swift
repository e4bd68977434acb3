/// The options every command accepts, before the command name (git style) and anywhere after it.
public enum GlobalOptions {
    /// The global options, in help order.
    public static let all: [OptionSpec] = [
        OptionSpec("account", value: "name",
                   help: "Act as this account (env CLOUDSYNC_ACCOUNT; default 'default')."),
        OptionSpec("device", value: "name",
                   help: "Act as this device of the account (env CLOUDSYNC_DEVICE; default: the short host name)."),
        OptionSpec("container", value: "id",
                   help: "Use this container (env CLOUDSYNC_CONTAINER; default iCloud.com.example.App)."),
        OptionSpec("environment", value: "env",
                   help: "Use the container's development or production environment (env CLOUDSYNC_ENVIRONMENT; default development).",
                   completion: .values(["development", "production"])),
        OptionSpec("cloud", value: "url",
                   help: "The cloud to talk to, sqlite:///path, postgres://... or http(s)://HOST:PORT of 'cloudsync serve' (env CLOUDSYNC_CLOUD; default sqlite://<home>/cloud.sqlite)."),
        OptionSpec("home", value: "dir",
                   help: "Where local state lives (env CLOUDSYNC_HOME; default $XDG_DATA_HOME/cloudsync).",
                   completion: .file),
        OptionSpec("json", help: "Print JSON on stdout (NDJSON for streams) and JSON errors on stderr."),
        OptionSpec("quiet", short: "q", help: "Print no progress chatter on stderr."),
        OptionSpec("no-color", help: "Never color the output (NO_COLOR does the same)."),
        OptionSpec("help", short: "h", help: "Show help for cloudsync or the command."),
        OptionSpec("version", help: "Print the version of cloudsync."),
    ]

    /// The global option with this long name (without dashes).
    public static func option(long: String) -> OptionSpec? { all.first { $0.long == long } }

    /// The global option with this one-letter name.
    public static func option(short: Character) -> OptionSpec? { all.first { $0.short == short } }
}
