extension Predicate: CustomStringConvertible {
    /// The predicate in the format language, such that parsing it gives back an equal predicate
    /// (except that `%@` arguments are written as their ``PredicateValue/bound`` literal and
    /// an empty `AND` is written `TRUEPREDICATE`).
    public var description: String {
        switch self {
        case .truePredicate:
            return "TRUEPREDICATE"
        case .comparison(let key, .beginsWith, .argument(let text)):
            // BEGINSWITH compares an argument as text: written as a string, even when it looks
            // like a number (which BEGINSWITH would refuse).
            return PredicateDescription.key(key) + " " + PredicateOperator.beginsWith.rawValue + " " + PredicateDescription.quote(text)
        case .comparison(let key, let op, let value):
            return PredicateDescription.key(key) + " " + op.rawValue + " " + value.description
        case .and(let items):
            guard !items.isEmpty else { return "TRUEPREDICATE" }
            return items.map(PredicateDescription.operand).joined(separator: " AND ")
        case .not(let inner):
            return "NOT " + PredicateDescription.operand(inner)
        }
    }
}

extension PredicateValue: CustomStringConvertible {
    /// The value as a literal of the format language.
    public var description: String {
        switch self {
        case .string(let s): return PredicateDescription.quote(s)
        case .int64(let i): return String(i)
        case .double(let d): return d.description
        case .timestamp(let ms):
            let text = ISO8601.format(milliseconds: ms)
            return ISO8601.milliseconds(from: text) == ms ? "date(\"\(text)\")" : "date(\(ms))"
        case .argument: return bound.description
        case .list(let items): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        }
    }
}

enum PredicateDescription {
    /// An `AND` nested inside `AND` or `NOT` needs parentheses.
    static func operand(_ predicate: Predicate) -> String {
        if case .and(let items) = predicate, !items.isEmpty { return "(" + predicate.description + ")" }
        return predicate.description
    }

    /// A field name, escaped with `#` when it is a reserved word.
    static func key(_ key: String) -> String {
        PredicateParser.reservedWords.contains(key.uppercased()) ? "#" + key : key
    }

    /// A double-quoted string literal with the escapes the lexer reads back.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{0}": out += "\\0"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
