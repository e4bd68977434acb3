import CloudSyncCLI
import CloudSyncSession

/// `cloudsync repl`: the interactive prompt on the command table, or script mode when stdin is
/// not a terminal (or a script file is given). A bare `cloudsync` runs it too.
public enum ReplCommand {
    /// The command table entry; live completion values come from `liveValues`.
    public static func spec(liveValues: LiveValueSource) -> CommandSpec {
        CommandSpec(
            name: "repl",
            abstract: "Run commands at an interactive prompt, or one per line from a script.",
            discussion: """
                On a terminal, opens a prompt that runs the commands of cloudsync without the \
                'cloudsync' in front. The prompt shows the context, account@device, followed by \
                ':container' when it is not the default one. 'help' works as usual. Each command \
                runs in a child process: an error prints and the session goes on, and Ctrl-C stops \
                a running command.

                Tab completes commands, subcommands, options and live values: zone names, record \
                types and record names from the cloud. Ctrl-C clears the line, Ctrl-D (or 'exit', \
                'quit') leaves with status 0. Editing keys are GNU readline's (~/.inputrc, \
                application name cloudsync).

                'use account NAME', 'use device NAME' and 'use container ID' switch the context \
                for the commands that follow, so two devices can play a sync story in one \
                session; 'use' alone shows the context. A global option on a line (--device \
                laptop) still applies to that line only.

                Lines are split into words as a shell would: '...' and "..." quote, a backslash \
                escapes the next character or, at the end of a line, continues it on the next; \
                '#' starts a comment. There are no variables, globs, pipes or redirections. A \
                line with an unbalanced quote is an error.

                History is kept in $CLOUDSYNC_HISTORY, else $XDG_STATE_HOME/cloudsync/history \
                (mode 0600, folder 0700), at most 1000 lines, across sessions; /dev/null turns it \
                off. A line starting with a blank is not recorded. An unreadable or oversize \
                history file is skipped with a warning.

                When stdin is not a terminal, or with a script file, the lines are run one after \
                another: blank lines and '#' comments are skipped, 'use' and 'exit' work, and \
                commands read /dev/null as their stdin. The exit status is that of the first \
                failing line, else 0; with --bail the script stops there.
                """,
            options: [
                OptionSpec("bail", help: "In a script, stop at the first line that fails."),
                OptionSpec("echo", short: "x", help: "In a script, print each line to stderr before running it."),
            ],
            arguments: [
                ArgumentSpec("script", help: "Run the lines of this file instead of reading stdin.", optional: true,
                             completion: .file),
            ],
            examples: [
                Example("cloudsync", "Open the prompt (on a terminal)."),
                Example("cloudsync --device laptop repl", "Open the prompt as the device laptop."),
                Example("printf 'zone create Notes\\nzone list\\n' | cloudsync repl --bail",
                        "Run two commands; stop at the first failure."),
                Example("cloudsync repl --echo setup.cloudsync", "Run a script file, showing each line."),
            ],
            run: { context, arguments in
                guard let dispatcher = context.dispatcher else {
                    throw CLIError.internalError("the REPL needs the dispatcher")
                }
                let status = try run(context, arguments, dispatcher: dispatcher, liveValues: liveValues)
                if status != 0 { throw CLIError.exit(status) }
            })
    }

    private static func run(_ context: CommandContext, _ arguments: ParsedArguments, dispatcher: Dispatcher,
                            liveValues: LiveValueSource) throws -> Int32 {
        let output = context.output
        if let script = arguments.argument("script") {
            let runner = ScriptRunner(interpreter: interpreter(context, dispatcher, .inProcess),
                                      bail: arguments.flag("bail"), echo: arguments.flag("echo"), output: output)
            return script == "-" ? runner.runStandardInput() : try runner.runFile(script)
        }
        guard context.isInteractive else {
            let runner = ScriptRunner(interpreter: interpreter(context, dispatcher, .inProcess),
                                      bail: arguments.flag("bail"), echo: arguments.flag("echo"), output: output)
            return runner.runStandardInput()
        }
        let session = ReplSession(
            interpreter: interpreter(context, dispatcher, .childProcess(executable: "/proc/self/exe")),
            history: ReplHistory(path: ReplHistory.location(environment: context.environment, settings: context.settings),
                                 warning: { output.warning("\($0)") }),
            output: output, liveValues: liveValues, color: context.settings.color)
        let readline: Readline
        do {
            readline = try Readline.shared()
        } catch {
            throw error.cliError
        }
        let editor = ReadlineEditor(readline: readline)
        defer { editor.close() }
        let banner = context.settings.quiet
            ? nil : "\(Dispatcher.programName) \(dispatcher.version): 'help' lists the commands, Tab completes, Ctrl-D quits."
        return session.run(editor: editor, banner: banner)
    }

    private static func interpreter(_ context: CommandContext, _ dispatcher: Dispatcher,
                                    _ runner: ReplInterpreter.Runner) -> ReplInterpreter {
        ReplInterpreter(dispatcher: dispatcher, settings: context.settings, environment: context.environment,
                        output: context.output, runner: runner)
    }
}
