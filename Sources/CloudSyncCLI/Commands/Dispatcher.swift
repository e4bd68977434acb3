import Glibc

/// The entry point of the command suite: parses the command line against the registry, resolves
/// the settings, runs the command (or a `cloudsync-<name>` plugin, or help) and turns its
/// outcome into an exit status. It never crashes on bad input: every mistake is a message and a
/// status from `ExitCode`.
public struct Dispatcher: Sendable {
    /// The program name used in messages, help and plugin names.
    public static let programName = "cloudsync"

    /// The builtin commands.
    public let registry: CommandRegistry
    /// The version printed by `--version`.
    public let version: String

    /// A dispatcher over `registry`; `version` is printed by `--version`.
    public init(registry: CommandRegistry, version: String) {
        self.registry = registry
        self.version = version
    }

    /// The whole command table as one tree: the root is `cloudsync` itself, its options are the
    /// global options and its subcommands are the registered commands plus the builtin `help`.
    /// Help, man pages, completions and the REPL read this.
    public var rootCommand: CommandSpec {
        let dispatcher = self
        // Built, like the families, only when a command line (or a table reader) reaches it.
        let help = CommandRegistry.Entry(name: HelpCommand.name) {
            HelpCommand.spec { context, arguments in
                let invocation = Invocation(dispatcher: dispatcher, environment: context.environment,
                                            output: context.output, isInteractive: context.isInteractive)
                let status = invocation.showHelp(topic: arguments.arguments(HelpCommand.topicArgument),
                                                 all: arguments.flag("all"), overrides: SettingsOverrides(arguments))
                if status != 0 { throw CLIError.exit(status) }
            }
        }
        return CommandSpec(name: Dispatcher.programName, abstract: Dispatcher.abstract,
                           discussion: Dispatcher.discussion, options: GlobalOptions.all,
                           examples: Dispatcher.examples, registered: registry.entries + [help])
    }

    /// Runs one command line.
    /// - Parameters:
    ///   - arguments: the words after the program name.
    ///   - environment: the environment to resolve settings from and to pass to plugins.
    ///   - output: where to print; by default stdout and stderr of the process.
    ///   - isInteractive: whether stdin is a terminal; nil asks `isatty(0)`.
    /// - Returns: the exit status.
    public func run(arguments: [String], environment: [String: String], output: Output? = nil,
                    isInteractive: Bool? = nil) -> Int32 {
        let output = output ?? Output()
        let invocation = Invocation(dispatcher: self, environment: environment, output: output,
                                    isInteractive: isInteractive ?? SystemInfo.isTerminal(STDIN_FILENO))
        let status = invocation.run(arguments)
        output.flush()
        return status
    }

    /// Runs the process's own command line and environment, then exits with the status.
    public func main() -> Never {
        let status = run(arguments: Array(CommandLine.arguments.dropFirst()),
                         environment: ProcessEnvironment.current())
        exit(status)
    }

    static let abstract = "CloudKit-style sync for Linux"

    static var discussion: String { """
        Each invocation acts as one device of one account in one container of a cloud. The \
        global options choose them; each one is taken from the command-line flag, else from the \
        environment (\(SettingSpec.all.filter { $0.isOption }.compactMap(\.variable).joined(separator: ", "))), \
        else from the config file, else from the defaults.

        The config file is $CLOUDSYNC_CONFIG, else $XDG_CONFIG_HOME/cloudsync/config (by \
        default ~/.config/cloudsync/config). It holds 'key = value' lines for the keys \
        \(ConfigFile.keys.joined(separator: ", ")); lines starting with '#' or ';' are comments.

        A command that is not built in runs the executable cloudsync-<command> found on \
        $CLOUDSYNC_EXEC_PATH, then $PATH, with the resolved context exported as CLOUDSYNC_* \
        variables, and CLOUDSYNC_JSON, CLOUDSYNC_QUIET and CLOUDSYNC_NO_COLOR set to 1 when \
        --json, --quiet and --no-color (or NO_COLOR) are given.

        Without a command, cloudsync opens its REPL on a terminal, or runs the commands piped \
        into it, one per line (see 'cloudsync help repl').
        """ }

    /// The root page's examples: the most used commands (the short `cloudsync --help` shows
    /// them under the families).
    static let examples = [
        Example("cloudsync zone create Notes", "Make a zone that tracks changes."),
        Example("cloudsync record save Note n1 --zone Notes --field title=Hello", "Save a record in the cloud."),
        Example("cloudsync --device phone fetch-changes", "Fetch what changed since this device last asked."),
        Example("cloudsync store put Todo milk --field title='Buy milk'", "Change this device's local store (offline)."),
        Example("cloudsync store sync", "Push the local store's changes and pull the others'."),
        Example("cloudsync otp code github", "A 2FA code."),
        Example("cloudsync help -a", "List every command, plugins included."),
        Example("cloudsync --device laptop --json <command>",
                "Run a command as the device 'laptop' and print JSON."),
    ]
}
