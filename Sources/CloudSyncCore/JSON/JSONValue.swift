/// A JSON document. Objects keep their key order so that output is stable and readable.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer literal (no fraction, no exponent) that fits in 64 bits.
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.int(a), .double(b)), let (.double(b), .int(a)): Double(a) == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            sameMembers(a, b)
        default: false
        }
    }

    /// Objects are equal when they have the same keys with equal values, in any order; a long
    /// object is compared through a hash index (linear, not quadratic, in its size).
    private static func sameMembers(_ a: [(String, JSONValue)], _ b: [(String, JSONValue)]) -> Bool {
        guard a.count == b.count else { return false }
        if a.count <= JSONMemberIndex.linearLimit {
            return a.allSatisfy { key, value in b.first { $0.0 == key }?.1 == value }
        }
        let lookup = Dictionary(b, uniquingKeysWith: { first, _ in first })
        return a.allSatisfy { key, value in lookup[key] == value }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(Double(i))
        case .double(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o.count)
        }
    }

    /// The value of `key` in an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value as an integer, if it is an integer or a double with no fraction.
    public var int64Value: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int64(d)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [(String, JSONValue)]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// A short name of the JSON type, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
