/// The interactive REPL: reads lines from a `LineEditor` with a prompt that shows the context,
/// keeps the history, completes with the command table and live values, and runs each line
/// with a `ReplInterpreter`. Errors print and the session goes on; Ctrl-C abandons the line;
/// Ctrl-D (or `exit`) ends the session with status 0.
public final class ReplSession {
    /// Runs the lines.
    public let interpreter: ReplInterpreter
    /// The history of this session.
    public let history: ReplHistory
    private let output: Output
    private let liveValues: LiveValueSource
    private let color: Bool

    /// A session.
    /// - Parameters:
    ///   - interpreter: runs the lines.
    ///   - history: the loaded history (its entries are given to the editor).
    ///   - output: where the session's own messages go.
    ///   - liveValues: where live completion values come from.
    ///   - color: whether the prompt may be bold.
    public init(interpreter: ReplInterpreter, history: ReplHistory, output: Output, liveValues: LiveValueSource,
                color: Bool) {
        self.interpreter = interpreter
        self.history = history
        self.output = output
        self.liveValues = liveValues
        self.color = color
    }

    /// Runs the session until Ctrl-D or `exit`; returns the exit status (0).
    public func run(editor: LineEditor, banner: String?) -> Int32 {
        for entry in history.entries { editor.addHistory(entry) }
        editor.completer = { [unowned self] text in self.completions(forTextBeforeCursor: text) }
        defer {
            editor.completer = nil
            history.close()
        }
        if let banner { output.line(.text(banner)) }
        output.flush()
        while true {
            switch readLogicalLine(editor, prompt: interpreter.prompt(color: color, markers: true)) {
            case .endOfInput:
                output.line("")
                output.flush()
                return ExitCode.ok.rawValue
            case .interrupted:
                continue
            case .line(let text):
                if history.add(text) { editor.addHistory(text) }
                if case .exit = interpreter.execute(text.trimmingBlanksAround()) { return ExitCode.ok.rawValue }
            }
        }
    }

    /// A line and its continuation lines (after a trailing backslash, or while a quote is open).
    private func readLogicalLine(_ editor: LineEditor, prompt: String) -> LineInput {
        Self.logicalLine(editor.readLine(prompt: prompt)) { editor.readLine(prompt: "> ") }
    }

    /// Joins `first` with the lines `next` reads while the text goes on: a trailing backslash
    /// joins without the line break (as a shell does), an open quote keeps the line break in
    /// the quoted text (as bash and psql do). Ctrl-C or Ctrl-D on a continuation line ends it.
    static func logicalLine(_ first: LineInput, next: () -> LineInput) -> LineInput {
        guard case .line(var text) = first else { return first }
        while true {
            if CommandLineSplitter.continues(text) {
                text.removeLast()
            } else if CommandLineSplitter.endsInsideQuote(text) {
                text += "\n"
            } else {
                return .line(text)
            }
            let more = next()
            guard case .line(let line) = more else { return more }
            text += line
        }
    }

    /// What Tab offers for the text left of the cursor.
    public func completions(forTextBeforeCursor text: String) -> CompletionResult {
        guard var words = CommandLineSplitter.splitForCompletion(text) else { return .candidates([]) }
        if words.count > 1 && words.first == Dispatcher.programName { words.removeFirst() }
        if words.first == "use" && words.count == 3 {
            return .candidates(localNames(words[1]).filter { $0.hasPrefix(words[2]) }.map { CompletionCandidate($0) })
        }
        let engine = CompletionEngine(root: interpreter.dispatcher.rootCommand,
                                      extraCommands: ReplInterpreter.sessionCommands, liveValues: liveValues,
                                      environment: interpreter.environment)
        return engine.complete(words)
    }

    /// `use device <Tab>`: the devices of the account that have state on this machine;
    /// `use account <Tab>`: the accounts that do.
    private func localNames(_ setting: String) -> [String] {
        guard let settings = interpreter.settings() else { return [] }
        let devices = settings.home + "/devices"
        switch setting {
        case "account":
            return FileSystem.directoryEntries(devices).filter(Settings.isValidName).sorted()
        case "device":
            return FileSystem.directoryEntries(devices + "/" + settings.account)
                .filter { $0.hasSuffix(".sqlite") }
                .map { String($0.dropLast(".sqlite".count)) }
                .filter(Settings.isValidName)
                .sorted()
        default:
            return []
        }
    }
}
