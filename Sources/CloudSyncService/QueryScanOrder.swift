import CloudSyncCore

/// The order in which a storage hands a query's records over, and where it starts (keyset
/// paging): used when every sort key is a system key, which the store keeps in columns and can
/// sort on itself. The keys always end with the record name, so the order is total and equals
/// ``SortDescriptor`` order (`compare`) for the records of one zone.
public struct QueryScanOrder: Sendable {
    /// A column the store can sort on.
    public enum Column: Sendable, Equatable {
        case name, created, modified
    }

    /// A cursor value: a timestamp in ms or a record name.
    public enum Value: Sendable, Equatable {
        case integer(Int64)
        case text(String)
    }

    /// The sort columns, most significant first; the last is `.name`.
    public var keys: [(column: Column, ascending: Bool)]
    /// The last record of the previous page, one value per key; nil for the first page.
    public var after: [Value]?
    /// How many rows a store that fetches in batches asks for at once.
    public var batchSize: Int

    /// The store order for `sort` starting after `cursor`, or nil when a sort key is a record field
    /// (the service then sorts itself).
    public init?(sort: [SortDescriptor], after cursor: QuerySortKey?, batchSize: Int) {
        var keys: [(column: Column, ascending: Bool)] = []
        var values: [Value] = []
        for (index, descriptor) in sort.enumerated() {
            let value = cursor.flatMap { index < $0.values.count ? $0.values[index] : nil }
            switch descriptor.field {
            case PredicateKeys.recordName:
                keys.append((.name, descriptor.ascending))
                if let cursor { values.append(.text(cursor.recordName)) }
                self.init(keys: keys, after: cursor == nil ? nil : values, batchSize: batchSize)
                return
            case PredicateKeys.creationDate, PredicateKeys.modificationDate:
                keys.append((descriptor.field == PredicateKeys.creationDate ? .created : .modified, descriptor.ascending))
                if cursor != nil {
                    guard case .timestamp(let ms)? = value else { return nil }
                    values.append(.integer(ms))
                }
            default:
                return nil
            }
        }
        keys.append((.name, true))
        if let cursor { values.append(.text(cursor.recordName)) }
        self.init(keys: keys, after: cursor == nil ? nil : values, batchSize: batchSize)
    }

    init(keys: [(column: Column, ascending: Bool)], after: [Value]?, batchSize: Int) {
        self.keys = keys
        self.after = after
        self.batchSize = max(1, batchSize)
    }

    /// The cursor values of a record, for the next batch of a store that fetches in batches.
    public func values(of record: Record) -> [Value] {
        keys.map { key in
            switch key.column {
            case .name: .text(record.recordID.recordName)
            case .created: .integer(record.system?.created.timestamp ?? 0)
            case .modified: .integer(record.system?.modified.timestamp ?? 0)
            }
        }
    }

    /// -1, 0 or 1 as cursor values `a` come before, equal or come after `b` in this order (text
    /// ordinal by UTF-8 bytes, as SQLite's BINARY and PostgreSQL's "C" collation compare).
    public func compare(_ a: [Value], _ b: [Value]) -> Int {
        for (index, key) in keys.enumerated() where index < a.count && index < b.count {
            let order: Int
            switch (a[index], b[index]) {
            case let (.integer(x), .integer(y)): order = x < y ? -1 : (x == y ? 0 : 1)
            case let (.text(x), .text(y)): order = x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : (x == y ? 0 : 1)
            case (.integer, .text): order = -1
            case (.text, .integer): order = 1
            }
            if order != 0 { return key.ascending ? order : -order }
        }
        return 0
    }

    /// The SQL pieces for this order over the `records` table: the keyset condition (empty for a
    /// first page) with its parameters as `placeholder(n)` (n counting from `firstParameter`),
    /// and the ORDER BY list.
    public func sql(firstParameter: Int, placeholder: (Int) -> String) -> (condition: String, orderBy: String) {
        let columns = keys.map { key in
            switch key.column {
            case .name: "name"
            case .created: "created_ms"
            case .modified: "modified_ms"
            }
        }
        let orderBy = zip(columns, keys).map { "\($0) \($1.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
        guard after != nil else { return ("", orderBy) }
        // (c1 op v1) OR (c1 = v1 AND c2 op v2) OR ...: strictly after the cursor.
        var alternatives: [String] = []
        for index in keys.indices {
            var terms: [String] = []
            for earlier in 0..<index { terms.append("\(columns[earlier]) = \(placeholder(firstParameter + earlier))") }
            terms.append("\(columns[index]) \(keys[index].ascending ? ">" : "<") \(placeholder(firstParameter + index))")
            alternatives.append("(" + terms.joined(separator: " AND ") + ")")
        }
        return (" AND (" + alternatives.joined(separator: " OR ") + ")", orderBy)
    }
}
