import Glibc

/// Runs the lines of a REPL session or a script: splits each line into words, handles the
/// session's own words (`use`, `exit`, `quit`, and a note after `help`), and runs everything
/// else through the same command table as one-shot use, in the session's context.
///
/// The context is an environment: `use device phone` sets `CLOUDSYNC_DEVICE` for the commands
/// that follow, so a flag on a line (`--device laptop`) still wins, as everywhere.
public final class ReplInterpreter {
    /// How a command line runs.
    public enum Runner: Sendable {
        /// In this process (scripts: fast, nothing to interrupt).
        case inProcess
        /// As a child process of this executable (a terminal session: Ctrl-C stops the command,
        /// not the session, and nothing a command does can end the session).
        case childProcess(executable: String)
    }

    /// What a line did.
    public enum Outcome: Sendable, Hashable {
        /// Nothing to run (blank or a comment).
        case empty
        /// A command or session word ran with this status.
        case ran(Int32)
        /// `exit` or `quit`.
        case exit
    }

    /// The dispatcher whose table the lines run.
    public let dispatcher: Dispatcher
    /// The environment of the commands: the session's context and `use` switches.
    public private(set) var environment: [String: String]
    /// Words put before every line (`--json`, `--quiet` given to `repl` itself).
    public let lineFlags: [String]
    private let runner: Runner
    private let output: Output

    /// An interpreter in the context of `settings` (pinned into the environment, so a later
    /// change of the config file does not move the session).
    public init(dispatcher: Dispatcher, settings: Settings, environment: [String: String], output: Output,
                runner: Runner) {
        self.dispatcher = dispatcher
        self.output = output
        self.runner = runner
        var environment = environment.merging(settings.exportedEnvironment()) { $1 }
        if !settings.color { environment["NO_COLOR"] = environment["NO_COLOR"] ?? "1" }
        self.environment = environment
        var flags: [String] = []
        if settings.json { flags.append("--json") }
        if settings.quiet { flags.append("--quiet") }
        lineFlags = flags
    }

    /// The words of the REPL besides the command table, for completion and help.
    public static let sessionCommands: [CommandSpec] = [
        CommandSpec(name: "use", abstract: "Show or switch the account, device, container or environment of this session.",
                    arguments: [ArgumentSpec("setting", help: "What to switch.", optional: true,
                                             completion: .values(["account", "device", "container", "environment"])),
                                ArgumentSpec("name", help: "The new account, device, container or environment.", optional: true)],
                    run: { _, _ in }),
        CommandSpec(name: "clear", abstract: "Clear the screen.", run: { _, _ in }),
        CommandSpec(name: "exit", abstract: "Leave the REPL.", run: { _, _ in }),
        CommandSpec(name: "quit", abstract: "Leave the REPL.", run: { _, _ in }),
    ]

    /// The section `help` adds in the REPL, in the layout of the help pages.
    public static var sessionHelp: String {
        var lines = ["", "REPL"]
        lines += TextWrapper.twoColumns([
            ("use", "Show the account, device, container, environment and cloud of this session."),
            ("use account <name>", "Act as this account from now on (a --account on a line still wins)."),
            ("use device <name>", "Act as this device from now on."),
            ("use container <id>", "Use this container from now on."),
            ("use environment <env>", "Use development or production from now on."),
            ("clear", "Clear the screen."),
            ("exit, quit", "Leave the REPL (Ctrl-D does too)."),
        ], column: HelpRenderer().descriptionColumn, width: HelpRenderer().width)
        lines += TextWrapper.wrap("Tab completes commands, options and live values (zone names, record types, ...). "
                                  + "Ctrl-C clears the line or stops a running command. Up, Down and Ctrl-R search the "
                                  + "history; a line starting with a blank is kept out of it. See 'help repl'.",
                                  width: HelpRenderer().width, indent: 2)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The context the commands run in now, or nil if the environment no longer resolves.
    public func settings() -> Settings? {
        try? Settings.resolve(overrides: SettingsOverrides(), environment: environment, stdoutIsTTY: output.isTTY) { _ in }
    }

    /// The prompt: `account@device> `, with `:container` when it is not the default one. With
    /// `markers`, escape sequences are wrapped in readline's invisible-text markers.
    public func prompt(color: Bool, markers: Bool) -> String {
        guard let settings = settings() else { return "cloudsync> " }
        var context = settings.account + "@" + settings.device
        if settings.container != Settings.defaultContainer { context += ":" + settings.container }
        context = TerminalEscaping.escapeValue(context)
        guard color else { return context + "> " }
        let (open, close) = markers ? ("\u{1}", "\u{2}") : ("", "")
        return open + TextStyle.bold.escape + close + context + open + TextStyle.reset + close + "> "
    }

    /// Runs one line. `location` (`script:3`, `-:3`) prefixes every error of the line.
    public func execute(_ line: String, location: String? = nil) -> Outcome {
        output.location = location
        defer { output.location = nil }
        let words: [String]
        do {
            words = try CommandLineSplitter.split(line)
        } catch {
            output.error("\(error.description)")
            return .ran(ExitCode.usage.rawValue)
        }
        var command = words[...]
        if command.first == Dispatcher.programName { command = command.dropFirst() }
        guard let first = command.first else { return .empty }
        switch first {
        case "exit", "quit":
            guard command.count == 1 else {
                output.error("'\(first)' takes no arguments")
                return .ran(ExitCode.usage.rawValue)
            }
            return .exit
        case "use":
            return .ran(use(Array(command.dropFirst())))
        case "clear":
            guard command.count == 1 else {
                output.error("'clear' takes no arguments")
                return .ran(ExitCode.usage.rawValue)
            }
            return .ran(clear())
        default:
            // A bare `help` is followed by the session's own section: it is not paged, so the
            // two read as one page (help on a command is paged as anywhere on a terminal).
            let bareHelp = first == HelpCommand.name && command.count == 1
            let status = run(Array(command), location: location, unpaged: bareHelp)
            if bareHelp && status == 0 && !lineFlags.contains("--json") {
                output.write(.text(Self.sessionHelp))
                output.flush()
            }
            return .ran(status)
        }
    }

    /// Runs a command line of the table in the session's context.
    private func run(_ words: [String], location: String?, unpaged: Bool = false) -> Int32 {
        output.flush()
        var environment = environment
        if unpaged { environment["CLOUDSYNC_PAGER"] = "cat" }
        switch runner {
        case .inProcess:
            let lineOutput = Output()
            lineOutput.location = location
            return dispatcher.run(arguments: lineFlags + words, environment: environment, output: lineOutput,
                                  isInteractive: false)
        case .childProcess(let executable):
            do {
                let status = try ProcessRunner.run(executable, argv0: Dispatcher.programName,
                                                   arguments: lineFlags + words, environment: environment)
                // Stopped by Ctrl-C: the terminal echoed ^C; the next prompt starts a fresh line.
                if status == 128 + SIGINT {
                    output.write("\n")
                    output.flush()
                }
                return status
            } catch {
                output.error("\(error.description)")
                return ExitCode.internalError.rawValue
            }
        }
    }

    /// The settings `use` switches (each sets its variable for the session's commands).
    private static let switchable: [SettingSpec] = [.account, .device, .container, .environment]

    /// `use`, `use account NAME`, `use device NAME`, `use container ID`, `use environment ENV`.
    private func use(_ arguments: [String]) -> Int32 {
        guard let what = arguments.first else {
            guard let settings = settings() else { return ExitCode.usage.rawValue }
            output.line("account      \(settings.account)")
            output.line("device       \(settings.device)")
            output.line("container    \(settings.container)")
            output.line("environment  \(settings.environment.rawValue)")
            output.line("cloud        \(settings.cloudURL)")
            output.flush()
            return ExitCode.ok.rawValue
        }
        let usage = "usage: use [account|device|container|environment <value>]"
        guard let setting = Self.switchable.first(where: { $0.name == what }), let variable = setting.variable else {
            var message: TerminalText = "use: unknown setting '\(what)'"
            if let hint = Suggestions.didYouMean(what, among: Self.switchable.map(\.name)) { message = message.appending("\n\(hint)") }
            output.error(message)
            output.writeError(.text(usage + "\n"))
            return ExitCode.usage.rawValue
        }
        guard arguments.count == 2, let value = arguments.last, !value.isEmpty else {
            output.error("use \(what) needs one \(what == "container" ? "identifier" : what == "environment" ? "value" : "name")")
            output.writeError(.text(usage + "\n"))
            return ExitCode.usage.rawValue
        }
        // The same validation as the flag, variable and config file (`SettingSpec.validate`), so a
        // bad value is refused here, not blamed on the variable at the next line.
        do {
            try setting.validate(value, from: "use \(what)")
        } catch {
            output.error(.text(error.description))
            return ExitCode.usage.rawValue
        }
        environment[variable] = value
        if let settings = settings() {
            output.info("now \(settings.account)@\(settings.device) in \(settings.container) (\(settings.environment.rawValue))")
        }
        return ExitCode.ok.rawValue
    }

    /// `clear`: clears a terminal screen (nothing when stdout is not a terminal).
    private func clear() -> Int32 {
        if output.isTTY {
            output.writeVerbatim("\u{1B}[H\u{1B}[2J\u{1B}[3J")
            output.flush()
        }
        return ExitCode.ok.rawValue
    }
}
