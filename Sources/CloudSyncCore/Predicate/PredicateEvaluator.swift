extension Predicate {
    /// True when `record` matches.
    ///
    /// The field side is the record's value for the key (see ``Record/queryValue(forKey:)``);
    /// the value side is converted to the field's type:
    ///
    /// | field | compares with |
    /// | --- | --- |
    /// | STRING | strings and `%@` text, ordinal (Unicode scalar order, no normalization) |
    /// | INT64, DOUBLE | numbers, exactly across the two types; `%@` text that is a number |
    /// | TIMESTAMP | dates, numbers (ms), ISO-8601 strings and `%@` text (ms or ISO-8601) |
    /// | REFERENCE | strings and `%@` text, against the referenced record name |
    /// | list | only through `CONTAINS`, element by element as above |
    ///
    /// - `BEGINSWITH` is case-sensitive and needs a STRING field.
    /// - `IN` is true when the field equals one of the list's values.
    /// - `CONTAINS` is true when a list field has an element equal to the value; on a field that
    ///   is not a list it is false (CloudKit has no substring search).
    /// - A missing field, a type that cannot be compared (BYTES, LOCATION, ASSETID, a list with
    ///   `==`, a string against a number…) or a NaN makes a comparison false, never a crash,
    ///   with one exception: `!=` is always the exact negation of `==`, so it is TRUE when the
    ///   field is missing or incomparable (as `NSPredicate`, where `nil != 5`), and
    ///   `a != x` always matches the same records as `NOT a == x`.
    public func evaluate(_ record: Record) -> Bool {
        switch self {
        case .truePredicate:
            return true
        case .and(let items):
            return items.allSatisfy { $0.evaluate(record) }
        case .not(let inner):
            return !inner.evaluate(record)
        case .comparison(let key, let op, let value):
            return Predicate.matches(record.queryValue(forKey: key), op, value)
        }
    }

    /// The field names (and system keys) this predicate compares.
    public var referencedFields: Set<String> {
        switch self {
        case .truePredicate: []
        case .comparison(let key, _, _): [key]
        case .not(let inner): inner.referencedFields
        case .and(let items): items.reduce(into: Set<String>()) { $0.formUnion($1.referencedFields) }
        }
    }

    /// Applies one comparison to a field value (nil when the field is missing).
    static func matches(_ field: FieldValue?, _ op: PredicateOperator, _ value: PredicateValue) -> Bool {
        if op == .notEqual { return !matches(field, .equal, value) }
        guard let field else { return false }
        switch op {
        case .equal, .notEqual: return PredicateOrdering.compare(field, value) == 0
        case .less: return PredicateOrdering.compare(field, value) == -1
        case .lessOrEqual: return PredicateOrdering.compare(field, value).map { $0 <= 0 } ?? false
        case .greater: return PredicateOrdering.compare(field, value) == 1
        case .greaterOrEqual: return PredicateOrdering.compare(field, value).map { $0 >= 0 } ?? false
        case .beginsWith:
            switch (field, value) {
            case let (.string(text), .string(prefix)), let (.string(text), .argument(prefix)):
                return PredicateOrdering.hasPrefix(text, prefix)
            default:
                return false
            }
        case .in:
            guard case .list(let items) = value else { return PredicateOrdering.compare(field, value) == 0 }
            return items.contains { PredicateOrdering.compare(field, $0) == 0 }
        case .contains:
            guard case .list(_, let elements) = field else { return false }
            return elements.contains { PredicateOrdering.compare($0, value) == 0 }
        }
    }
}
