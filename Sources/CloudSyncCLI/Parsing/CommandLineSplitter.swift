/// Splits a line typed in the REPL (or read from a script) into words, with the quoting rules of
/// a POSIX shell, minus expansions:
///
/// - blanks (space, tab) separate words;
/// - `'…'` keeps everything literally;
/// - `"…"` keeps everything but `\"`, `\\`, `\$` and `` \` ``, which drop the backslash;
/// - outside quotes a backslash keeps the next character literally;
/// - `#` at the start of a word begins a comment that runs to the end of the line.
///
/// `$`, `~`, globs, pipes and redirections have no meaning: they are ordinary characters.
public enum CommandLineSplitter {
    /// The words of a complete line.
    /// - Throws: `LineSplitError` for a quote that is never closed or a trailing backslash.
    public static func split(_ line: String) throws(LineSplitError) -> [String] {
        let scan = Scan(line)
        if let error = scan.error { throw error }
        return scan.words
    }

    /// The words of the text left of the cursor, for completion: the last element is the word
    /// being completed (empty after a blank), and an open quote simply ends the text. Nil when
    /// the cursor is inside a comment, where nothing is completed.
    public static func splitForCompletion(_ text: String) -> [String]? {
        let scan = Scan(text)
        if scan.inComment { return nil }
        var words = scan.words
        if !scan.inWord { words.append("") }
        return words
    }

    /// True if the line ends inside a quote that is never closed: in the REPL the next line
    /// continues it (the line break is part of the quoted text).
    public static func endsInsideQuote(_ line: String) -> Bool {
        if case .unbalancedQuote? = Scan(line).error { return true }
        return false
    }

    /// True if the line ends with a backslash that escapes the line break (outside single
    /// quotes), so the next line continues it.
    public static func continues(_ line: String) -> Bool {
        if case .trailingBackslash? = Scan(line).error { return true }
        return false
    }

    /// One pass over the characters.
    private struct Scan {
        var words: [String] = []
        var error: LineSplitError?
        /// The text ends inside a word (the last word is still being typed).
        var inWord = false
        /// The text ends inside a comment.
        var inComment = false

        init(_ line: String) {
            enum Quote { case none, single, double }
            var word = ""
            var quote = Quote.none
            var quoteColumn = 0
            var escaped = false
            var column = 0
            for character in line {
                column += 1
                if inComment { continue }
                if escaped {
                    escaped = false
                    if quote == .double && !"\"\\$`".contains(character) { word.append("\\") }
                    word.append(character)
                    continue
                }
                switch quote {
                case .single:
                    if character == "'" { quote = .none } else { word.append(character) }
                case .double:
                    if character == "\"" {
                        quote = .none
                    } else if character == "\\" {
                        escaped = true
                    } else {
                        word.append(character)
                    }
                case .none:
                    switch character {
                    case " ", "\t", "\n", "\r":
                        if inWord {
                            words.append(word)
                            word = ""
                            inWord = false
                        }
                    case "'":
                        quote = .single
                        quoteColumn = column
                        inWord = true
                    case "\"":
                        quote = .double
                        quoteColumn = column
                        inWord = true
                    case "\\":
                        escaped = true
                        inWord = true
                    case "#" where !inWord:
                        inComment = true
                    default:
                        word.append(character)
                        inWord = true
                    }
                }
            }
            if escaped {
                error = .trailingBackslash
                if quote == .double { word.append("\\") }
            } else if quote == .single {
                error = .unbalancedQuote(quote: "'", column: quoteColumn)
            } else if quote == .double {
                error = .unbalancedQuote(quote: "\"", column: quoteColumn)
            }
            if inWord { words.append(word) }
        }
    }
}
