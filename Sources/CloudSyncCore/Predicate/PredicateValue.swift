/// The right-hand side of a ``Predicate`` comparison.
///
/// Literals keep the type they were written with. A `%@` argument keeps its text
/// (``argument(_:)``) and takes its type from the field it is compared with, so that
/// `title == %@` with `"42"` compares the string `42` while `count == %@` with `"42"`
/// compares the number 42. Left alone it binds as ``bound`` says.
public indirect enum PredicateValue: Sendable, Hashable {
    /// A quoted string literal.
    case string(String)
    /// An integer literal, or `TRUE`/`YES` (1) and `FALSE`/`NO` (0).
    case int64(Int64)
    /// A decimal literal.
    case double(Double)
    /// A date literal (`date("…")`, `CAST(…, "NSDate")`): milliseconds since the epoch.
    case timestamp(Int64)
    /// The text of a `%@` argument, typed by the field it meets (see the evaluator).
    case argument(String)
    /// The list of an `IN` comparison.
    case list([PredicateValue])

    /// The typed value a `%@` argument binds to when no field decides: INT64 when the text is an
    /// integer that fits, DOUBLE when it is a finite decimal, STRING otherwise. Lists bind each
    /// item; every other value is returned unchanged.
    public var bound: PredicateValue {
        switch self {
        case .argument(let text): PredicateValue.number(text) ?? .string(text)
        case .list(let items): .list(items.map(\.bound))
        default: self
        }
    }

    /// Parses a decimal number as the predicate language writes it: `-?digits` (INT64 if it
    /// fits) or `-?digits.digits`, `-?.digits` (a `.` needs digits after it), with an optional exponent `e±digits` (DOUBLE,
    /// finite). Returns nil for anything else: no `+`, no spaces, no `inf`/`nan`/hex.
    public static func number(_ text: String) -> PredicateValue? {
        let bytes = Array(text.utf8)
        var i = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        var intDigits = i - intStart
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let fracStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            guard i > fracStart else { return nil }
            intDigits += i - fracStart
        }
        guard intDigits > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let expStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            guard i > expStart else { return nil }
        }
        guard i == bytes.count else { return nil }
        if isInteger {
            return Int64(text).map(PredicateValue.int64)
        }
        guard let d = Double(text), d.isFinite else { return nil }
        return .double(d)
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
