/// A statement parameter or a result value. Parameters go as text (bytea as binary, so bytes
/// need no escaping); results come back as text and are typed by their column's type:
/// `boolean` → `.bool`; `smallint`, `integer`, `bigint`, `oid` → `.int64`; `real`, `double
/// precision` → `.double`; `bytea` (hex output) → `.bytes`; SQL NULL → `.null`; anything else
/// (text, numeric, json, timestamps…) → `.text` as PostgreSQL writes it.
public enum PostgresValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int64(Int64)
    case double(Double)
    case text(String)
    case bytes([UInt8])
    /// A parameter already in PostgreSQL's binary format for the type with OID `type` (sent as
    /// binary, declared as that type); `textArray`, `int64Array` and `boolArray` make arrays.
    /// Results never come back as this case.
    case binary(type: UInt32, bytes: [UInt8])

    /// The value as an integer, or nil for any other case.
    public var int64: Int64? { if case .int64(let value) = self { value } else { nil } }
    /// The value as text, or nil for any other case.
    public var text: String? { if case .text(let value) = self { value } else { nil } }
    /// The value as bytes, or nil for any other case.
    public var bytes: [UInt8]? { if case .bytes(let value) = self { value } else { nil } }
    /// The value as a boolean, or nil for any other case.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The value as a floating-point number, or nil for any other case.
    public var double: Double? { if case .double(let value) = self { value } else { nil } }
    /// True for SQL NULL.
    public var isNull: Bool { self == .null }
}

/// PostgreSQL's type OIDs for the values sent and decoded here (`pg_type.dat`).
enum PostgresType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let oid: UInt32 = 26
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let text: UInt32 = 25
    static let boolArray: UInt32 = 1000
    static let textArray: UInt32 = 1009
    static let int8Array: UInt32 = 1016

    /// The type a parameter is declared as: 0 (the server infers it from the statement) for text
    /// and NULL, so text works for any column type PostgreSQL can parse it into.
    static func of(_ value: PostgresValue) -> UInt32 {
        switch value {
        case .null, .text: 0
        case .bool: bool
        case .int64: int8
        case .double: float8
        case .bytes: bytea
        case .binary(let type, _): type
        }
    }
}
