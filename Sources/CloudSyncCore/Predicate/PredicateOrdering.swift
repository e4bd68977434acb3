/// Three-way comparisons shared by the predicate evaluator and the query sort.
/// Results are -1, 0 or 1; nil means "not comparable" (NaN, or incompatible types).
enum PredicateOrdering {
    /// Ordinal string order: by Unicode scalar values (the same as UTF-8 byte order), with no
    /// normalization, so `"é"` (U+00E9) and `"e\u{301}"` are different strings.
    static func strings(_ a: String, _ b: String) -> Int {
        var i = a.utf8.makeIterator()
        var j = b.utf8.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (x?, y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// True when `text` starts with `prefix`, by Unicode scalars (case-sensitive).
    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }

    static func integers(_ a: Int64, _ b: Int64) -> Int {
        a < b ? -1 : (a == b ? 0 : 1)
    }

    static func doubles(_ a: Double, _ b: Double) -> Int? {
        if a.isNaN || b.isNaN { return nil }
        return a < b ? -1 : (a == b ? 0 : 1)
    }

    /// Exact comparison of an integer with a double (no rounding of the integer to a double).
    static func mixed(_ i: Int64, _ d: Double) -> Int? {
        if d.isNaN { return nil }
        if d >= 9_223_372_036_854_775_808.0 { return -1 }
        if d < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = d.rounded(.down)
        let w = Int64(whole)
        if i != w { return i < w ? -1 : 1 }
        return d > whole ? -1 : 0
    }

    /// Compares a field value with a predicate value, coercing the predicate value to the
    /// field's type as the evaluator documents. Nil when the two cannot be compared.
    static func compare(_ field: FieldValue, _ value: PredicateValue) -> Int? {
        switch (field, value) {
        case let (.string(a), .string(b)), let (.string(a), .argument(b)):
            return strings(a, b)
        case let (.reference(r), .string(b)), let (.reference(r), .argument(b)):
            return strings(r.recordID.recordName, b)
        case let (.int64(a), .int64(b)), let (.timestamp(a), .int64(b)), let (.timestamp(a), .timestamp(b)):
            return integers(a, b)
        case let (.int64(a), .double(b)), let (.timestamp(a), .double(b)):
            return mixed(a, b)
        case let (.double(a), .int64(b)):
            return mixed(b, a).map { -$0 }
        case let (.double(a), .double(b)):
            return doubles(a, b)
        case (.int64, .argument(let text)), (.double, .argument(let text)):
            guard let number = PredicateValue.number(text) else { return nil }
            return compare(field, number)
        case (.timestamp(let a), .argument(let text)):
            if let number = PredicateValue.number(text) { return compare(field, number) }
            return ISO8601.milliseconds(from: text).map { integers(a, $0) }
        case (.timestamp(let a), .string(let text)):
            return ISO8601.milliseconds(from: text).map { integers(a, $0) }
        default:
            return nil
        }
    }
}
