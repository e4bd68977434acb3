/// Where one record stands in a query's sort order: its value for each sort key (nil when it has
/// none) and its record name, which breaks every tie. A continuation marker carries the key of
/// the last record of its page, and the next page starts strictly after it (keyset paging).
public struct QuerySortKey: Sendable, Equatable {
    /// One value per sort descriptor, in the sort's order; nil where the record has no value.
    public var values: [FieldValue?]
    /// The record name, the last key of every query order.
    public var recordName: String

    public init(values: [FieldValue?], recordName: String) {
        self.values = values
        self.recordName = recordName
    }
}

extension Array where Element == SortDescriptor {
    /// The sort key of `record` under this order.
    public func key(of record: Record) -> QuerySortKey {
        QuerySortKey(values: map { record.queryValue(forKey: $0.field) }, recordName: record.recordID.recordName)
    }

    /// -1, 0 or 1 as `a` comes before, ties with or comes after `b` in this order, exactly as
    /// ``compare(_:_:)`` orders two records of one zone (missing values last in both directions,
    /// then the record name, ordinal). Keys of another sort order compare their common prefix.
    public func compareKeys(_ a: QuerySortKey, _ b: QuerySortKey) -> Int {
        for (index, descriptor) in enumerated() where index < a.values.count && index < b.values.count {
            switch (a.values[index], b.values[index]) {
            case (nil, nil): continue
            case (nil, _): return 1
            case (_, nil): return -1
            case let (x?, y?):
                let order = QuerySortOrder.values(x, y)
                if order != 0 { return descriptor.ascending ? order : -order }
            }
        }
        return QuerySortOrder.strings(a.recordName, b.recordName)
    }
}
