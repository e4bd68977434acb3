import Glibc

/// The hidden `cloudsync __complete [--] <word>...` entry point of the shell completion
/// scripts: it prints the candidates for the last word (the one under the cursor, possibly
/// empty), one per line, using the command table and, for live kinds, `LiveValueSource`.
///
/// It is quiet and quick: it prints nothing on any failure, and gives up silently after
/// `timeoutSeconds` (a cloud locked by a long write must not hang the shell).
public enum CompleteCommand {
    /// The command name.
    public static let name = "__complete"
    /// The longest a completion may take.
    public static let timeoutSeconds: UInt32 = 2

    /// The command table entry, answering live kinds from `liveValues`.
    public static func spec(liveValues: LiveValueSource) -> CommandSpec {
        CommandSpec(
            name: name,
            abstract: "Print the completions of a partly typed command line (for shell scripts).",
            discussion: """
                Prints the candidates for the last word, one per line: the words after 'cloudsync' \
                up to the cursor, the last one being the word under the cursor (empty after a blank). \
                Put '--' before the words. For '--option=part' it prints bare values. Prints nothing \
                on any failure.
                """,
            arguments: [ArgumentSpec("word", help: "The words typed so far.", optional: true, repeating: true)],
            hidden: true,
            run: { context, arguments in
                guard let dispatcher = context.dispatcher else { return }
                signal(SIGALRM) { _ in _exit(0) }
                alarm(timeoutSeconds)
                var words = arguments.arguments("word")
                if words.isEmpty { words = [""] }
                let engine = CompletionEngine(root: dispatcher.rootCommand, liveValues: liveValues,
                                              environment: context.environment)
                for value in engine.complete(words).values where !value.contains("\n") {
                    context.output.line(.value(value))
                }
                context.output.flush()
                alarm(0)
            })
    }
}
