/// One token of predicate text.
struct PredicateToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// An identifier or keyword, as written.
        case word(String)
        /// `#name`: a field name that may be a reserved word.
        case escapedWord(String)
        /// A quoted string, escapes resolved.
        case string(String)
        /// A number as written (`-12`, `3.5`, `1e3`).
        case number(String)
        /// `( ) { } ,` and the operator symbols.
        case symbol(String)
        /// `%@` (value) or `%K` (key).
        case placeholder(Character)
        case end
    }

    var kind: Kind
    /// 1-based column (in Unicode scalars) of the token's first character.
    var column: Int
    /// The token as written, for error messages.
    var text: String

    /// The upper-cased word, for keyword matching; nil for other tokens.
    var keyword: String? {
        if case .word(let w) = kind { return w.uppercased() }
        return nil
    }

    func isSymbol(_ s: String) -> Bool { kind == .symbol(s) }
}

/// Splits predicate text into tokens, one at a time, so that the first error in reading order
/// is the one reported.
struct PredicateLexer {
    let scalars: [Unicode.Scalar]
    var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// Two-character symbols, tried before the one-character ones.
    static let pairs: Set<String> = ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"]
    static let singles: Set<Unicode.Scalar> = ["(", ")", "{", "}", ",", "=", "<", ">", "!"]

    func error(_ column: Int, _ message: String) -> CloudError {
        PredicateParser.syntaxError(column: column, message)
    }

    mutating func next() throws(CloudError) -> PredicateToken {
        while index < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index += 1 }
        let start = index
        let column = start + 1
        guard index < scalars.count else { return PredicateToken(kind: .end, column: column, text: "") }
        let c = scalars[index]

        if c == "\"" || c == "'" {
            return PredicateToken(kind: .string(try readString(quote: c)), column: column, text: text(from: start))
        }
        if isDigit(c) || ((c == "-" || c == ".") && index + 1 < scalars.count && isDigit(scalars[index + 1]))
            || (c == "-" && index + 2 < scalars.count && scalars[index + 1] == "." && isDigit(scalars[index + 2])) {
            return try readNumber(start: start)
        }
        if isIdentifierStart(c) {
            while index < scalars.count, isIdentifierPart(scalars[index]) { index += 1 }
            let word = text(from: start)
            return PredicateToken(kind: .word(word), column: column, text: word)
        }
        if c == "#" {
            index += 1
            guard index < scalars.count, isIdentifierStart(scalars[index]) else {
                throw error(column, "expected a field name after '#'")
            }
            while index < scalars.count, isIdentifierPart(scalars[index]) { index += 1 }
            let word = text(from: start + 1)
            return PredicateToken(kind: .escapedWord(word), column: column, text: "#" + word)
        }
        if c == "%" {
            guard index + 1 < scalars.count, scalars[index + 1] == "@" || scalars[index + 1] == "K" else {
                throw error(column, "expected '%@' (a value) or '%K' (a field name)")
            }
            index += 2
            return PredicateToken(kind: .placeholder(Character(scalars[index - 1])), column: column, text: text(from: start))
        }
        if index + 1 < scalars.count {
            let pair = String(String.UnicodeScalarView([c, scalars[index + 1]]))
            if PredicateLexer.pairs.contains(pair) {
                index += 2
                return PredicateToken(kind: .symbol(pair), column: column, text: pair)
            }
        }
        if PredicateLexer.singles.contains(c) {
            index += 1
            return PredicateToken(kind: .symbol(String(c)), column: column, text: String(c))
        }
        switch c {
        case "&": throw error(column, "unexpected '&'; use '&&' or AND")
        case "|": throw error(column, "OR ('|') is not supported by CloudKit queries")
        case "[": throw error(column, "comparison modifiers such as [c] or [cd] are not supported by CloudKit queries")
        default: throw error(column, "unexpected character '\(c)'")
        }
    }

    func text(from start: Int) -> String {
        String(String.UnicodeScalarView(scalars[start..<index]))
    }

    mutating func readString(quote: Unicode.Scalar) throws(CloudError) -> String {
        let startColumn = index + 1
        index += 1
        var out = String.UnicodeScalarView()
        while true {
            guard index < scalars.count else {
                throw error(startColumn, "unterminated string: no closing \(quote) for the quote at column \(startColumn)")
            }
            let c = scalars[index]
            if c == quote { index += 1; return String(out) }
            guard c == "\\" else { out.append(c); index += 1; continue }
            let escapeColumn = index + 1
            index += 1
            guard index < scalars.count else {
                throw error(escapeColumn, "unterminated string: the text ends inside an escape")
            }
            let e = scalars[index]
            index += 1
            switch e {
            case "\\", "\"", "'": out.append(e)
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "0": out.append("\u{0}")
            case "u":
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard index < scalars.count, let digit = hexValue(scalars[index]) else {
                        throw error(escapeColumn, "\\u needs exactly four hex digits")
                    }
                    value = value * 16 + digit
                    index += 1
                }
                guard let scalar = Unicode.Scalar(value) else {
                    throw error(escapeColumn, "\\u escape is a surrogate, not a Unicode scalar")
                }
                out.append(scalar)
            default:
                throw error(escapeColumn, "unknown escape '\\\(e)'; use \\\\, \\\", \\', \\n, \\t, \\r, \\0 or \\uXXXX")
            }
        }
    }

    mutating func readNumber(start: Int) throws(CloudError) -> PredicateToken {
        if scalars[index] == "-" { index += 1 }
        while index < scalars.count, isDigit(scalars[index]) || scalars[index] == "." { index += 1 }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        }
        // Swallow letters glued to the number so that `5abc` is reported as one bad number.
        while index < scalars.count, isIdentifierPart(scalars[index]) { index += 1 }
        let written = text(from: start)
        guard PredicateValue.number(written) != nil || isIntegerText(written) else {
            throw error(start + 1, "invalid number '\(written)'")
        }
        return PredicateToken(kind: .number(written), column: start + 1, text: written)
    }

    /// True for `-?digits` (which may still be out of range; the parser says so).
    func isIntegerText(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.unicodeScalars.allSatisfy(isDigit)
    }

    func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

    func isIdentifierStart(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" }

    func isIdentifierPart(_ c: Unicode.Scalar) -> Bool { isIdentifierStart(c) || isDigit(c) }

    func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": c.value - 48
        case "a"..."f": c.value - 87
        case "A"..."F": c.value - 55
        default: nil
        }
    }
}
