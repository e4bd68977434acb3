/// Why a REPL or script line could not be split into words.
public enum LineSplitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A quote (`'` or `"`) opened at `column` (1-based) is never closed.
    case unbalancedQuote(quote: Character, column: Int)
    /// The line ends with a backslash, which escapes nothing.
    case trailingBackslash

    /// One human sentence.
    public var description: String {
        switch self {
        case .unbalancedQuote(let quote, let column):
            let name = quote == "'" ? "single quote (')" : "double quote (\")"
            return "unbalanced \(name): the quote at column \(column) is never closed"
        case .trailingBackslash:
            return "the line ends with a backslash that escapes nothing"
        }
    }

    /// The error as the CLI reports it (a usage error, exit 64).
    public var cliError: CLIError { .usage(description) }
}
