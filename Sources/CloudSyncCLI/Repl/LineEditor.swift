/// What a line editor read.
public enum LineInput: Sendable, Hashable {
    /// A line (without its line break).
    case line(String)
    /// Ctrl-C: the line was abandoned.
    case interrupted
    /// Ctrl-D on an empty line, or the end of the input.
    case endOfInput
}

/// Reads lines from a human at a terminal: the REPL's view of readline. Completion is asked
/// of `completer` with the text left of the cursor.
public protocol LineEditor: AnyObject {
    /// What to complete for the text left of the cursor.
    var completer: ((String) -> CompletionResult)? { get set }
    /// Shows `prompt` and reads one line.
    func readLine(prompt: String) -> LineInput
    /// Remembers a line for Up/Down and Ctrl-R.
    func addHistory(_ line: String)
}
