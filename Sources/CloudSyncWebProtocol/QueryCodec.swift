import CloudSyncCore

/// The Web Services query dictionary `{recordType, filterBy: [{comparator, fieldName,
/// fieldValue: {value, type}}], sortBy: [{fieldName, ascending}]}` and the project's
/// `Predicate`/`SortDescriptor`.
///
/// `filterBy` is a conjunction; each comparator is one comparison (`EQUALS`, `NOT_EQUALS`,
/// `LESS_THAN`, `LESS_THAN_OR_EQUALS`, `GREATER_THAN`, `GREATER_THAN_OR_EQUALS`, `BEGINS_WITH`,
/// `NOT_BEGINS_WITH`, `IN`, `NOT_IN`, `LIST_CONTAINS`, `NOT_LIST_CONTAINS`). A predicate that
/// `filterBy` cannot say (a `NOT` of an `AND`, a negated ordering) travels in the extension key
/// `predicate` as format-language text instead. A `fieldValue` without `type` whose value is a
/// string is a `%@`-style argument: it takes its type from the field it meets.
public enum QueryCodec {
    static let comparators: [(PredicateOperator, String)] = [
        (.equal, "EQUALS"), (.notEqual, "NOT_EQUALS"), (.less, "LESS_THAN"), (.lessOrEqual, "LESS_THAN_OR_EQUALS"),
        (.greater, "GREATER_THAN"), (.greaterOrEqual, "GREATER_THAN_OR_EQUALS"), (.beginsWith, "BEGINS_WITH"),
        (.in, "IN"), (.contains, "LIST_CONTAINS"),
    ]
    static let negated: [(PredicateOperator, String)] = [
        (.beginsWith, "NOT_BEGINS_WITH"), (.in, "NOT_IN"), (.contains, "NOT_LIST_CONTAINS"),
    ]

    /// The query dictionary of a record type, predicate and sort order.
    public static func encode(recordType: String, predicate: Predicate, sort: [SortDescriptor]) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("recordType", .string(recordType))]
        if let filters = filterBy(predicate) {
            pairs.append(("filterBy", .array(filters)))
        } else {
            pairs.append(("predicate", .string(predicate.description)))
        }
        if !sort.isEmpty {
            pairs.append(("sortBy", .array(sort.map {
                .object([("fieldName", .string($0.field)), ("ascending", .bool($0.ascending))])
            })))
        }
        return .object(pairs)
    }

    /// Decodes a query dictionary.
    public static func decode(_ json: JSONValue) throws(CloudError) -> (recordType: String, predicate: Predicate, sort: [SortDescriptor]) {
        _ = try JSONFields.object(json, "query")
        guard let recordType = try JSONFields.string(json, "recordType", required: true) else { throw JSONFields.bad("'recordType' is required") }
        var predicate = Predicate.truePredicate
        if let text = try JSONFields.string(json, "predicate") {
            predicate = try PredicateParser.parse(text)
        }
        if let filters = try JSONFields.array(json, "filterBy") {
            var items: [Predicate] = []
            for filter in filters { items.append(try decodeFilter(filter)) }
            if !items.isEmpty {
                if case .truePredicate = predicate {
                    predicate = items.count == 1 ? items[0] : .and(items)
                } else {
                    predicate = .and([predicate] + items)
                }
            }
        }
        var sort: [SortDescriptor] = []
        for item in try JSONFields.array(json, "sortBy") ?? [] {
            _ = try JSONFields.object(item, "sortBy item")
            guard let field = try JSONFields.string(item, "fieldName", required: true) else { continue }
            try validateFieldName(field, kind: "sort field")
            if item["relativeLocation"] != nil {
                throw JSONFields.bad("sorting by distance (relativeLocation) is not supported")
            }
            sort.append(SortDescriptor(field, ascending: try JSONFields.bool(item, "ascending") ?? true))
        }
        return (recordType, predicate, sort)
    }

    /// The `filterBy` list of a predicate, or nil when it cannot say it.
    static func filterBy(_ predicate: Predicate) -> [JSONValue]? {
        switch predicate {
        case .truePredicate: return []
        case .and(let items):
            var out: [JSONValue] = []
            for item in items {
                guard let filters = filterBy(item) else { return nil }
                out += filters
            }
            return out
        case .comparison(let key, let op, let value):
            guard let name = comparators.first(where: { $0.0 == op })?.1, let fieldValue = encode(value) else { return nil }
            return [filter(name, key, fieldValue)]
        case .not(.comparison(let key, let op, let value)):
            let name: String?
            if op == .equal { name = "NOT_EQUALS" } else if op == .notEqual { name = "EQUALS" } else {
                name = negated.first(where: { $0.0 == op })?.1
            }
            guard let name, let fieldValue = encode(value) else { return nil }
            return [filter(name, key, fieldValue)]
        case .not:
            return nil
        }
    }

    static func filter(_ comparator: String, _ field: String, _ value: JSONValue) -> JSONValue {
        .object([("comparator", .string(comparator)), ("fieldName", .string(field)), ("fieldValue", value)])
    }

    /// `{value, type}` of a predicate value; an argument has no type. Nil for mixed lists.
    static func encode(_ value: PredicateValue) -> JSONValue? {
        switch value {
        case .string(let s): return .object([("value", .string(s)), ("type", .string("STRING"))])
        case .int64(let i): return .object([("value", .int(i)), ("type", .string("INT64"))])
        case .double(let d): return .object([("value", .double(d)), ("type", .string("DOUBLE"))])
        case .timestamp(let t): return .object([("value", .int(t)), ("type", .string("TIMESTAMP"))])
        case .argument(let text): return .object([("value", .string(text))])
        case .list(let items):
            var values: [JSONValue] = []
            var type: String?
            for item in items {
                guard let encoded = encode(item), encoded["value"]?.arrayValue == nil else { return nil }
                let itemType = encoded["type"]?.stringValue ?? "ARGUMENT"
                if type == nil { type = itemType } else if type != itemType { return nil }
                values.append(encoded["value"] ?? .null)
            }
            var pairs: [(String, JSONValue)] = [("value", .array(values))]
            if let type, type != "ARGUMENT" { pairs.append(("type", .string(type + "_LIST"))) }
            return .object(pairs)
        }
    }

    /// A field name of a filter or sort: a record field, or one of Apple's system fields
    /// (`___modTime`, …; another `___` name is refused with the nearest one suggested).
    static func validateFieldName(_ field: String, kind: String) throws(CloudError) {
        if field.hasPrefix("_") {
            try PredicateKeys.validateSystemKey(field)
        } else {
            try NameRules.validateIdentifier(field, kind: kind)
        }
    }

    static func decodeFilter(_ json: JSONValue) throws(CloudError) -> Predicate {
        _ = try JSONFields.object(json, "filterBy item")
        guard let comparator = try JSONFields.string(json, "comparator", required: true),
              let field = try JSONFields.string(json, "fieldName", required: true) else { throw JSONFields.bad("bad filter") }
        try validateFieldName(field, kind: "filter field")
        guard let fieldValue = json["fieldValue"] else { throw JSONFields.bad("filter on '\(field)' has no fieldValue") }
        let value = try decodeValue(fieldValue, field: field)
        if let op = comparators.first(where: { $0.1 == comparator })?.0 {
            return .comparison(field, op, value)
        }
        if let op = negated.first(where: { $0.1 == comparator })?.0 {
            return .not(.comparison(field, op, value))
        }
        throw JSONFields.bad("comparator \(NameRules.quoted(comparator)) is not supported; use one of "
                             + (comparators + negated).map(\.1).joined(separator: ", "))
    }

    static func decodeValue(_ json: JSONValue, field: String) throws(CloudError) -> PredicateValue {
        // Apple's shape is {value, type}; a bare value is accepted too.
        let raw: JSONValue
        var typeText: String?
        if case .object = json, let inner = json["value"] {
            raw = inner
            typeText = try JSONFields.string(json, "type")
        } else {
            raw = json
        }
        if let typeText {
            guard let type = FieldTypeName(typeText) else {
                throw JSONFields.bad("filter on '\(field)': unknown type \(NameRules.quoted(typeText))")
            }
            if type.isList {
                guard let items = raw.arrayValue else { throw JSONFields.bad("filter on '\(field)': \(typeText) value must be an array") }
                var out: [PredicateValue] = []
                for item in items { out.append(try scalar(item, type: type.element, field: field)) }
                return .list(out)
            }
            return try scalar(raw, type: type.element, field: field)
        }
        return try untyped(raw, field: field)
    }

    static func untyped(_ json: JSONValue, field: String) throws(CloudError) -> PredicateValue {
        switch json {
        case .string(let s): return .argument(s)
        case .int(let i): return .int64(i)
        case .double(let d): return .double(d)
        case .bool(let b): return .int64(b ? 1 : 0)
        case .array(let items):
            var out: [PredicateValue] = []
            for item in items { out.append(try untyped(item, field: field)) }
            return .list(out)
        default:
            throw JSONFields.bad("filter on '\(field)': a \(json.kindName) cannot be compared; give {\"value\": …, \"type\": …}")
        }
    }

    static func scalar(_ json: JSONValue, type: FieldType, field: String) throws(CloudError) -> PredicateValue {
        let decoded = try RecordJSON.decodeValue(json, type: FieldTypeName(type), field: field)
        switch decoded {
        case .string(let s): return .string(s)
        case .int64(let i): return .int64(i)
        case .double(let d): return .double(d)
        case .timestamp(let t): return .timestamp(t)
        default: throw JSONFields.bad("filter on '\(field)': \(type.rawValue) values cannot be compared")
        }
    }
}
