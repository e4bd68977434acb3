/// One key of a query's sort order (CKQuery's `sortDescriptors`).
///
/// The field is a record field or a system key (``PredicateKeys``). Written on the command line
/// as `count` or `+count` (ascending) and `-count` (descending); see ``parseList(_:)``.
public struct SortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The field name or system key to sort on.
    public var field: String
    /// True for smallest first; missing values come last either way.
    public var ascending: Bool

    /// A sort on `field`, ascending unless told otherwise.
    public init(_ field: String, ascending: Bool = true) {
        self.field = field
        self.ascending = ascending
    }

    /// Parses one item: `name`, `+name` (ascending) or `-name` (descending); spaces around it
    /// are ignored. The name must be a valid field name.
    public init(parsing text: String) throws(CloudError) {
        var scalars = Substring(text).unicodeScalars[...]
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        var ascending = true
        if scalars.first == "-" {
            ascending = false
            scalars.removeFirst()
        } else if scalars.first == "+" {
            scalars.removeFirst()
        }
        let name = String(String.UnicodeScalarView(scalars))
        guard !name.isEmpty else {
            throw CloudError(.invalidArguments, "sort key \(NameRules.quoted(text)) has no field name; write name, +name or -name")
        }
        if name.hasPrefix("_") {
            try PredicateKeys.validateSystemKey(name)  // Apple's `___modTime` and the like
        } else {
            try NameRules.validateIdentifier(name, kind: "sort field")
        }
        self.init(name, ascending: ascending)
    }

    /// Parses a comma-separated sort list such as `-count,title`: the first key decides, each
    /// next one breaks the ties of the ones before. Errors (an empty list or item, a bad field
    /// name, a field named twice) are `CloudError(.invalidArguments, …)`.
    public static func parseList(_ text: String) throws(CloudError) -> [SortDescriptor] {
        var result: [SortDescriptor] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let descriptor = try SortDescriptor(parsing: String(item))
            guard !result.contains(where: { $0.field == descriptor.field }) else {
                throw CloudError(.invalidArguments, "sort field '\(descriptor.field)' is given twice")
            }
            result.append(descriptor)
        }
        return result
    }

    /// `name` or `-name`, as ``parseList(_:)`` reads it.
    public var description: String { (ascending ? "" : "-") + field }
}

extension Array where Element == SortDescriptor {
    /// The "are in increasing order" predicate of this sort order, for `sorted(by:)`.
    ///
    /// Keys are compared in turn. A record missing a key's value sorts after every record that
    /// has one, in both directions. Values of one field compare as the predicate evaluator does
    /// (numbers exactly across INT64 and DOUBLE, strings ordinal); values of different types are
    /// ordered by type (numbers, TIMESTAMP, STRING, REFERENCE, BYTES, LOCATION, ASSETID, lists),
    /// and NaN sorts after every other number. Records that tie on every key are ordered by
    /// record name, then zone name, then zone owner, so the order is total and deterministic.
    public func compare(_ a: Record, _ b: Record) -> Bool {
        for descriptor in self {
            switch (a.queryValue(forKey: descriptor.field), b.queryValue(forKey: descriptor.field)) {
            case (nil, nil): continue
            case (nil, _): return false
            case (_, nil): return true
            case let (x?, y?):
                let order = QuerySortOrder.values(x, y)
                if order != 0 { return descriptor.ascending ? order < 0 : order > 0 }
            }
        }
        let (x, y) = (a.recordID, b.recordID)
        let order = QuerySortOrder.strings(x.recordName, y.recordName)
        if order != 0 { return order < 0 }
        let zone = QuerySortOrder.strings(x.zoneID.zoneName, y.zoneID.zoneName)
        if zone != 0 { return zone < 0 }
        return QuerySortOrder.strings(x.zoneID.ownerRecordName, y.zoneID.ownerRecordName) < 0
    }

    /// `records` sorted by this order.
    public func apply(to records: [Record]) -> [Record] {
        records.sorted(by: compare)
    }
}

/// The total order of field values used by the query sort.
enum QuerySortOrder {
    static func strings(_ a: String, _ b: String) -> Int { PredicateOrdering.strings(a, b) }

    static func rank(_ value: FieldValue) -> Int {
        switch value {
        case .int64, .double: 0
        case .timestamp: 1
        case .string: 2
        case .reference: 3
        case .bytes: 4
        case .location: 5
        case .asset: 6
        case .encryptedBytes: 7
        case .list: 8
        }
    }

    /// Doubles with NaN after every number and equal to itself.
    static func doubles(_ a: Double, _ b: Double) -> Int {
        switch (a.isNaN, b.isNaN) {
        case (true, true): 0
        case (true, false): 1
        case (false, true): -1
        case (false, false): a < b ? -1 : (a == b ? 0 : 1)
        }
    }

    static func optionalDoubles(_ a: Double?, _ b: Double?) -> Int {
        switch (a, b) {
        case (nil, nil): 0
        case (nil, _): 1
        case (_, nil): -1
        case let (x?, y?): doubles(x, y)
        }
    }

    static func values(_ a: FieldValue, _ b: FieldValue) -> Int {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case let (.int64(x), .int64(y)), let (.timestamp(x), .timestamp(y)):
            return PredicateOrdering.integers(x, y)
        case let (.int64(x), .double(y)):
            return PredicateOrdering.mixed(x, y) ?? -1
        case let (.double(x), .int64(y)):
            return PredicateOrdering.mixed(y, x).map { -$0 } ?? 1
        case let (.double(x), .double(y)):
            return doubles(x, y)
        case let (.string(x), .string(y)):
            return strings(x, y)
        case let (.reference(x), .reference(y)):
            return firstNonZero([strings(x.recordID.recordName, y.recordID.recordName),
                                 strings(x.recordID.zoneID.zoneName, y.recordID.zoneID.zoneName),
                                 strings(x.recordID.zoneID.ownerRecordName, y.recordID.zoneID.ownerRecordName),
                                 strings(x.action.rawValue, y.action.rawValue)])
        case let (.bytes(x), .bytes(y)):
            return sequences(x, y) { PredicateOrdering.integers(Int64($0), Int64($1)) }
        case let (.location(x), .location(y)):
            return firstNonZero([doubles(x.latitude, y.latitude), doubles(x.longitude, y.longitude),
                                 optionalDoubles(x.altitude, y.altitude),
                                 optionalDoubles(x.horizontalAccuracy, y.horizontalAccuracy)])
        case let (.asset(x), .asset(y)):
            return firstNonZero([strings(x.checksum, y.checksum), PredicateOrdering.integers(x.size, y.size)])
        case let (.list(_, x), .list(_, y)):
            return sequences(x, y, values)
        default:
            return 0
        }
    }

    static func firstNonZero(_ orders: [Int]) -> Int {
        orders.first { $0 != 0 } ?? 0
    }

    /// Lexicographic order of two sequences; a prefix sorts first.
    static func sequences<T>(_ a: [T], _ b: [T], _ element: (T, T) -> Int) -> Int {
        for (x, y) in zip(a, b) {
            let order = element(x, y)
            if order != 0 { return order }
        }
        return PredicateOrdering.integers(Int64(a.count), Int64(b.count))
    }
}
