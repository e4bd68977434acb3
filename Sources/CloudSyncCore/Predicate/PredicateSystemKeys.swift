extension Predicate {
    /// Refuses what a query on the system fields could only answer with nothing (issue 30): a
    /// `___` name that is not one of Apple's system fields (`PredicateKeys.appleSystemFields`),
    /// and a comparison of a TIMESTAMP system key (`creationDate`, `modificationDate`,
    /// `___createTime`, `___modTime`) with a value that is not a time (ms since the epoch, an
    /// ISO 8601 time or a date literal). Every backend runs it (`ServiceRules.validatePredicate`),
    /// so SQLite, PostgreSQL and a server answer alike.
    /// - Throws: `CloudError` `.invalidArguments` (exit 65) naming the key and the value.
    public func validateSystemKeys() throws(CloudError) {
        var pending = [self]
        while let predicate = pending.popLast() {
            switch predicate {
            case .truePredicate: break
            case .and(let parts): pending += parts
            case .not(let inner): pending.append(inner)
            case .comparison(let key, let op, let value):
                try PredicateKeys.validateSystemKey(key)
                guard PredicateKeys.timestampKeys.contains(key) else { continue }
                let values: [PredicateValue]
                if case .list(let items) = value { values = items } else { values = [value] }
                if op == .beginsWith || op == .contains {
                    throw CloudError(.invalidArguments, "\(key) is a TIMESTAMP: BEGINSWITH and CONTAINS do not apply to it")
                }
                for item in values where !Self.isTime(item) {
                    throw CloudError(.invalidArguments,
                                     "\(key) is a TIMESTAMP: compare it with milliseconds since the epoch, an ISO 8601 time or date(\"…\"), not \(Self.describe(item))")
                }
            }
        }
    }

    static func isTime(_ value: PredicateValue) -> Bool {
        switch value {
        case .int64, .double, .timestamp: true
        case .string(let text): ISO8601.milliseconds(from: text) != nil
        case .argument(let text): PredicateValue.number(text) != nil || ISO8601.milliseconds(from: text) != nil
        default: false
        }
    }

    static func describe(_ value: PredicateValue) -> String {
        switch value {
        case .string(let text), .argument(let text): "'\(text)'"
        default: "\(value)"
        }
    }
}

extension PredicateKeys {
    /// Refuses a key that starts with `___` and is not one of Apple's system fields, with the
    /// nearest one suggested (a user field cannot start with `_`, so it could match nothing).
    /// - Throws: `CloudError` `.invalidArguments` (exit 65).
    public static func validateSystemKey(_ key: String) throws(CloudError) {
        guard key.hasPrefix("_"), !all.contains(key) else { return }
        let nearest = SchemaSuggestion.closest(to: key, in: appleSystemFields)
        throw CloudError(.invalidArguments,
                         "unknown system field '\(key)': a query may name \(appleSystemFields.joined(separator: ", ")), recordName, creationDate or modificationDate"
                            + (nearest.map { "\nDid you mean '\($0)'?" } ?? ""))
    }
}
