import CloudSyncCore

/// Token search over a record's SEARCHABLE fields: the predicate `self CONTAINS 'word'`, as
/// CloudKit has it. A text is cut into tokens at every character that is not a letter or a digit
/// and compared without case; the comparison holds when every token of the value is among the
/// tokens of the searchable STRING and LIST<STRING> fields.
struct TokenSearch {
    /// The key that names the whole record in a predicate.
    static let key = PredicateKeys.selfKey

    /// The fields searched; nil: every STRING and LIST<STRING> field (a type the schema does
    /// not declare yet, in development).
    var fields: Set<String>?

    /// The searchable fields of `type`, or every string field when the schema lacks the type.
    init(type: RecordTypeSchema?) {
        fields = type.map { Set($0.sortedFields.filter(\.isSearchable).map(\.name)) }
    }

    /// Lower-cased tokens of `text`.
    static func tokens(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// `predicate` evaluated on `record`, with `self CONTAINS` as token search.
    func evaluate(_ predicate: Predicate, _ record: Record) -> Bool {
        switch predicate {
        case .truePredicate: true
        case .and(let items): items.allSatisfy { evaluate($0, record) }
        case .not(let inner): !evaluate(inner, record)
        case .comparison(let key, .contains, let value) where key == Self.key:
            matches(record, value)
        case .comparison: predicate.evaluate(record)
        }
    }

    func matches(_ record: Record, _ value: PredicateValue) -> Bool {
        let wanted: [String]
        switch value {
        case .string(let text), .argument(let text): wanted = Self.tokens(text)
        default: return false
        }
        guard !wanted.isEmpty else { return false }
        var have = Set<String>()
        for (name, field) in record.fields where fields?.contains(name) ?? true {
            switch field {
            case .string(let text): have.formUnion(Self.tokens(text))
            case .list(_, let items):
                for case .string(let text) in items { have.formUnion(Self.tokens(text)) }
            default: break
            }
        }
        return wanted.allSatisfy(have.contains)
    }
}
