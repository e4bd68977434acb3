/// Parses the CloudKit subset of the `NSPredicate` format language into a ``Predicate``.
///
/// Grammar (keywords case-insensitive):
///
///     predicate  := TRUEPREDICATE | FALSEPREDICATE | condition ((AND | &&) condition)*
///     condition  := (NOT | !) condition | '(' predicate ')' | comparison
///     comparison := key operator value
///     key        := name | #name | %K
///     operator   := == | = | != | <> | < | <= | =< | > | >= | => | BEGINSWITH | CONTAINS
///                 | IN               (then value := '{' value (',' value)* '}' | %@)
///     value      := "string" | 'string' | integer | decimal | TRUE | FALSE | YES | NO | %@
///                 | CAST(seconds, "NSDate") | date("ISO-8601") | date(milliseconds)
///
/// - `OR`/`||` is refused: CloudKit does not support it.
/// - Strings take backslash escapes `\\ \" \' \n \t \r \0 \uXXXX`.
/// - `TRUE`/`YES` are INT64 1, `FALSE`/`NO` are INT64 0 (CloudKit has no boolean type).
/// - `CAST(x, "NSDate")` is `NSDate(timeIntervalSinceReferenceDate: x)`: x seconds (may be
///   decimal) since 2001-01-01T00:00:00Z, NOT since 1970. `date(…)` takes an ISO-8601 UTC
///   string (see ``ISO8601/milliseconds(from:)``) or integer milliseconds since 1970. Both give a
///   ``PredicateValue/timestamp(_:)`` in ms; `CAST(%@, "NSDate")` and `date(%@)` also work.
/// - `%@` takes the next argument as a ``PredicateValue/argument(_:)``; after `IN` it takes a
///   comma-separated list (items trimmed of spaces, each typed like a `%@`; use
///   `{%@, %@}` for items that hold commas). `%K` takes the next argument as a field name.
/// - Reserved words (`AND`, `IN`, `TRUE`, …) can be used as field names as `#name`.
/// - `FALSEPREDICATE` parses as `.not(.truePredicate)`.
/// - At most ``Predicate/maxNestingDepth`` levels of `NOT`/`!` and parentheses may be open at
///   once, and the result nests at most that deep (see ``Predicate/nestingDepth``): deeper text
///   is an error, never a stack overflow.
public enum PredicateParser {
    /// Parses `text`, binding `%@`/`%K` placeholders positionally from `arguments`.
    ///
    /// Every error is `CloudError(.invalidArguments, …)`. A syntax error's reason reads
    /// `predicate syntax error at column N: …` with N the 1-based column (in Unicode scalars)
    /// where the text went wrong; a wrong number of arguments says how many were needed.
    public static func parse(_ text: String, arguments: [String] = []) throws(CloudError) -> Predicate {
        var state = PredicateParserState(text: text, arguments: arguments)
        let predicate = try state.parseAll()
        try predicate.validateNesting()
        return predicate
    }

    /// The error for a mistake at a 1-based column.
    static func syntaxError(column: Int, _ message: String) -> CloudError {
        CloudError(.invalidArguments, "predicate syntax error at column \(column): \(message)")
    }

    /// Words that cannot be field names unless written `#word`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "MATCHES", "BETWEEN",
        "TRUEPREDICATE", "FALSEPREDICATE", "TRUE", "FALSE", "YES", "NO", "NIL", "NULL",
        "ANY", "ALL", "SOME", "NONE", "SELF",
    ]
}

/// The recursive-descent parser behind ``PredicateParser``.
struct PredicateParserState {
    var lexer: PredicateLexer
    var lookahead: PredicateToken?
    let arguments: [String]
    var argumentsUsed = 0
    var placeholderCount = 0
    /// `NOT`s and parentheses open at this point of the descent.
    var nesting = 0

    init(text: String, arguments: [String]) {
        lexer = PredicateLexer(text)
        self.arguments = arguments
    }

    func error(_ token: PredicateToken, _ message: String) -> CloudError {
        PredicateParser.syntaxError(column: token.column, message)
    }

    /// `, found 'x'` or ` but the predicate ended`, to finish a message.
    func found(_ token: PredicateToken) -> String {
        token.kind == .end ? " but the predicate ended" : ", found '\(token.text)'"
    }

    mutating func peek() throws(CloudError) -> PredicateToken {
        if let lookahead { return lookahead }
        let token = try lexer.next()
        lookahead = token
        return token
    }

    @discardableResult
    mutating func advance() throws(CloudError) -> PredicateToken {
        let token = try peek()
        lookahead = nil
        return token
    }

    mutating func expectSymbol(_ symbol: String, _ message: String) throws(CloudError) {
        let token = try peek()
        guard token.isSymbol(symbol) else { throw error(token, "\(message)\(found(token))") }
        skip()
    }

    /// Drops the token already peeked.
    mutating func skip() { lookahead = nil }

    mutating func parseAll() throws(CloudError) -> Predicate {
        let first = try peek()
        if first.kind == .end { throw error(first, "empty predicate; use TRUEPREDICATE to match every record") }
        let predicate = try parseAnd()
        let rest = try peek()
        guard rest.kind == .end else {
            throw error(rest, "expected AND or the end of the predicate, found '\(rest.text)'")
        }
        guard argumentsUsed == arguments.count else {
            throw CloudError(.invalidArguments,
                             "too many predicate arguments: the predicate has \(placeholderCount) placeholder(s) but \(arguments.count) argument(s) were given")
        }
        return predicate
    }

    mutating func parseAnd() throws(CloudError) -> Predicate {
        var items = [try parseCondition()]
        while true {
            let token = try peek()
            if token.keyword == "AND" || token.isSymbol("&&") {
                skip()
                items.append(try parseCondition())
            } else if token.keyword == "OR" || token.isSymbol("||") {
                throw error(token, "OR is not supported by CloudKit queries; combine conditions with AND and NOT, or run one query per alternative")
            } else {
                break
            }
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    mutating func parseCondition() throws(CloudError) -> Predicate {
        let token = try peek()
        let negates = token.keyword == "NOT" || token.isSymbol("!")
        if negates || token.isSymbol("(") {
            guard nesting < Predicate.maxNestingDepth else {
                throw error(token, "nested more than \(Predicate.maxNestingDepth) levels deep; at most \(Predicate.maxNestingDepth) levels of NOT, AND and parentheses are allowed")
            }
            skip()
            nesting += 1
            defer { nesting -= 1 }
            if negates { return .not(try parseCondition()) }
            let inner = try parseAnd()
            try expectSymbol(")", "expected ')' to close the '(' at column \(token.column)")
            return inner
        }
        if token.keyword == "TRUEPREDICATE" { skip(); return .truePredicate }
        if token.keyword == "FALSEPREDICATE" { skip(); return .not(.truePredicate) }
        return try parseComparison()
    }

    mutating func parseComparison() throws(CloudError) -> Predicate {
        let keyToken = try advance()
        let key: String
        switch keyToken.kind {
        case .word(let word) where !PredicateParser.reservedWords.contains(word.uppercased()):
            key = word
        case .word(let word) where word.uppercased() == "SELF":
            // `self CONTAINS 'word'`: token search over the record's SEARCHABLE fields, decided
            // by the service (the key `self`; `#self` is a field of that name).
            guard try peek().keyword == "CONTAINS" else {
                throw error(keyToken, "SELF takes only CONTAINS (token search: self CONTAINS 'word')")
            }
            key = PredicateKeys.selfKey
        case .escapedWord(let word):
            key = word
        case .placeholder("K"):
            let name = try takeArgument(keyToken)
            guard let first = name.unicodeScalars.first, NameRules.isASCIILetter(first) || first == "_",
                  name.unicodeScalars.allSatisfy(NameRules.isWordScalar) else {
                throw error(keyToken, "the %K argument \(NameRules.quoted(name)) is not a field name")
            }
            key = name
        case .word(let word):
            throw error(keyToken, "expected a field name, found the keyword '\(word)' (write #\(word) for a field of that name)")
        case .end:
            throw error(keyToken, "expected a field name but the predicate ended")
        default:
            throw error(keyToken, "expected a field name, found '\(keyToken.text)'")
        }

        let opToken = try advance()
        let op: PredicateOperator
        switch (opToken.kind, opToken.keyword) {
        case (.symbol("=="), _), (.symbol("="), _): op = .equal
        case (.symbol("!="), _), (.symbol("<>"), _): op = .notEqual
        case (.symbol("<"), _): op = .less
        case (.symbol("<="), _), (.symbol("=<"), _): op = .lessOrEqual
        case (.symbol(">"), _): op = .greater
        case (.symbol(">="), _), (.symbol("=>"), _): op = .greaterOrEqual
        case (_, "BEGINSWITH"): op = .beginsWith
        case (_, "IN"): op = .in
        case (_, "CONTAINS"): op = .contains
        case (_, "ENDSWITH"), (_, "LIKE"), (_, "MATCHES"), (_, "BETWEEN"):
            throw error(opToken, "the operator \(opToken.text.uppercased()) is not supported by CloudKit queries")
        default:
            throw error(opToken, "expected an operator after '\(keyToken.text)'\(found(opToken))")
        }

        let value: PredicateValue
        if op == .in {
            value = try parseList(after: opToken)
        } else {
            let valueToken = try peek()
            value = try parseScalar(after: opToken)
            if op == .beginsWith {
                switch value {
                case .string, .argument: break
                default: throw error(valueToken, "BEGINSWITH needs a string, found '\(valueToken.text)'")
                }
            }
        }
        return .comparison(key, op, value)
    }

    /// The value after `IN`: `{a, b, …}` or a `%@` holding a comma-separated list.
    mutating func parseList(after opToken: PredicateToken) throws(CloudError) -> PredicateValue {
        let token = try peek()
        if case .placeholder("@") = token.kind {
            skip()
            let text = try takeArgument(token)
            let items = text.split(separator: ",", omittingEmptySubsequences: false).map { item in
                PredicateValue.argument(trimmingSpaces(item))
            }
            return .list(text.isEmpty ? [] : items)
        }
        guard token.isSymbol("{") else {
            throw error(token, "IN needs a list: {value, …} or %@\(found(token))")
        }
        skip()
        var items: [PredicateValue] = []
        if try peek().isSymbol("}") { skip(); return .list(items) }
        while true {
            items.append(try parseScalar(after: opToken))
            let next = try advance()
            if next.isSymbol(",") { continue }
            if next.isSymbol("}") { return .list(items) }
            throw error(next, "expected ',' or '}' in the list of IN\(found(next))")
        }
    }

    /// One literal, date or `%@`.
    mutating func parseScalar(after opToken: PredicateToken) throws(CloudError) -> PredicateValue {
        let token = try advance()
        switch token.kind {
        case .string(let s):
            return .string(s)
        case .number(let text):
            guard let number = PredicateValue.number(text) else {
                throw error(token, "the number \(text) does not fit in a 64-bit integer")
            }
            return number
        case .placeholder("@"):
            return .argument(try takeArgument(token))
        case .symbol("{"):
            throw error(token, "only IN takes a list {…}")
        case .word(let word):
            let upper = word.uppercased()
            var opensCall = false
            if upper == "CAST" || upper == "DATE" { opensCall = try peek().isSymbol("(") }
            switch upper {
            case "TRUE", "YES": return .int64(1)
            case "FALSE", "NO": return .int64(0)
            case "NIL", "NULL": throw error(token, "comparisons with nil are not supported by CloudKit queries")
            case "CAST" where opensCall: return try parseCast(token)
            case "DATE" where opensCall: return try parseDate(token)
            default:
                throw error(token, "'\(word)' is not a value: quote strings (\"\(word)\"); CloudKit cannot compare two fields")
            }
        case .end:
            throw error(token, "expected a value after '\(opToken.text)' but the predicate ended")
        default:
            throw error(token, "expected a value after '\(opToken.text)', found '\(token.text)'")
        }
    }

    /// `CAST(seconds since 2001-01-01, "NSDate")`.
    mutating func parseCast(_ castToken: PredicateToken) throws(CloudError) -> PredicateValue {
        skip()  // (
        let valueToken = try advance()
        let seconds: PredicateValue?
        switch valueToken.kind {
        case .number(let text): seconds = PredicateValue.number(text)
        case .placeholder("@"): seconds = PredicateValue.number(try takeArgument(valueToken))
        default: throw error(valueToken, "CAST needs a number of seconds since 2001-01-01\(found(valueToken))")
        }
        try expectSymbol(",", "expected ',' and \"NSDate\" in CAST")
        let typeToken = try advance()
        guard case .string(let type) = typeToken.kind else {
            throw error(typeToken, "expected \"NSDate\" as the type of CAST\(found(typeToken))")
        }
        guard type == "NSDate" else { throw error(typeToken, "only CAST(…, \"NSDate\") is supported, not \"\(type)\"") }
        try expectSymbol(")", "expected ')' to close CAST")
        let ms: Double
        switch seconds {
        case .int64(let s): ms = Double(s) * 1000
        case .double(let s): ms = (s * 1000).rounded()
        default: throw error(valueToken, "CAST needs a number of seconds since 2001-01-01")
        }
        let total = ms + Double(ISO8601.referenceDateMilliseconds)
        guard total.isFinite, abs(total) < 9.2e18 else { throw error(valueToken, "the date in CAST is out of range") }
        return .timestamp(Int64(total))
    }

    /// `date("2024-01-02T03:04:05Z")` or `date(1704164645000)` (ms since 1970).
    mutating func parseDate(_ dateToken: PredicateToken) throws(CloudError) -> PredicateValue {
        skip()  // (
        let valueToken = try advance()
        let text: String
        switch valueToken.kind {
        case .string(let s), .number(let s): text = s
        case .placeholder("@"): text = try takeArgument(valueToken)
        default: throw error(valueToken, "date needs an ISO-8601 string or integer milliseconds\(found(valueToken))")
        }
        let ms: Int64
        if case .int64(let n)? = PredicateValue.number(text) {
            ms = n
        } else if let parsed = ISO8601.milliseconds(from: text) {
            ms = parsed
        } else {
            throw error(valueToken, "\(NameRules.quoted(text)) is not an ISO-8601 UTC date such as \"2024-01-02T03:04:05Z\" or integer milliseconds")
        }
        try expectSymbol(")", "expected ')' to close date")
        return .timestamp(ms)
    }

    /// `text` without leading and trailing spaces.
    func trimmingSpaces(_ text: Substring) -> String {
        var scalars = text.unicodeScalars[...]
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// Takes the next positional argument for the placeholder `token`.
    mutating func takeArgument(_ token: PredicateToken) throws(CloudError) -> String {
        placeholderCount += 1
        guard argumentsUsed < arguments.count else {
            throw CloudError(.invalidArguments,
                             "too few predicate arguments: \(token.text) at column \(token.column) is placeholder \(placeholderCount) but \(arguments.count) argument(s) were given")
        }
        argumentsUsed += 1
        return arguments[argumentsUsed - 1]
    }
}
