/// A field type of the CloudKit Schema Language, before any `LIST<…>`.
///
/// `ENCRYPTED_x` is spelled `ENCRYPTED x` in Apple's grammar (`[ ENCRYPTED ] { BYTES | … }`); both
/// spellings parse, the printer writes Apple's. `NUMBER` is what a sandbox container adds for a
/// number saved before the schema said which; `PREFERRED AS` settles it.
public enum SchemaPrimitiveType: String, Sendable, Hashable, CaseIterable, Comparable {
    case asset = "ASSET"
    case bytes = "BYTES"
    case double = "DOUBLE"
    case encryptedBytes = "ENCRYPTED_BYTES"
    case encryptedDouble = "ENCRYPTED_DOUBLE"
    case encryptedInt64 = "ENCRYPTED_INT64"
    case encryptedLocation = "ENCRYPTED_LOCATION"
    case encryptedString = "ENCRYPTED_STRING"
    case encryptedTimestamp = "ENCRYPTED_TIMESTAMP"
    case int64 = "INT64"
    case location = "LOCATION"
    case number = "NUMBER"
    case numberAsDouble = "NUMBER_PREFERRED_AS_DOUBLE"
    case numberAsInt64 = "NUMBER_PREFERRED_AS_INT64"
    case reference = "REFERENCE"
    case string = "STRING"
    case timestamp = "TIMESTAMP"

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The type as the schema language writes it (`STRING`, `ENCRYPTED STRING`, `NUMBER PREFERRED AS INT64`).
    public var schemaText: String {
        switch self {
        case .encryptedBytes, .encryptedDouble, .encryptedInt64, .encryptedLocation, .encryptedString,
             .encryptedTimestamp:
            "ENCRYPTED " + rawValue.dropFirst("ENCRYPTED_".count)
        case .numberAsDouble: "NUMBER PREFERRED AS DOUBLE"
        case .numberAsInt64: "NUMBER PREFERRED AS INT64"
        default: rawValue
        }
    }

    /// Whether values are encrypted on the device (CloudKit's `encryptedValues`): never indexed.
    public var isEncrypted: Bool { rawValue.hasPrefix("ENCRYPTED_") }

    /// The type that `ENCRYPTED x` encrypts, or nil for a plain type.
    public static func encrypted(_ plain: SchemaPrimitiveType) -> SchemaPrimitiveType? {
        switch plain {
        case .bytes: .encryptedBytes
        case .double: .encryptedDouble
        case .int64: .encryptedInt64
        case .location: .encryptedLocation
        case .string: .encryptedString
        case .timestamp: .encryptedTimestamp
        default: nil
        }
    }

    /// The stored field type (`FieldType`) values of this type have in a record, or nil for a bare
    /// `NUMBER` (either `INT64` or `DOUBLE`).
    ///
    /// Mapping: ASSET→ASSETID, BYTES→BYTES, DOUBLE→DOUBLE, INT64→INT64, LOCATION→LOCATION,
    /// REFERENCE→REFERENCE, STRING→STRING, TIMESTAMP→TIMESTAMP, NUMBER PREFERRED AS INT64/DOUBLE→
    /// INT64/DOUBLE, and every ENCRYPTED x→ENCRYPTED_BYTES (the device seals the value; the cloud
    /// only ever holds the ciphertext).
    public var storedType: FieldType? {
        switch self {
        case .asset: .asset
        case .bytes: .bytes
        case .double, .numberAsDouble: .double
        case .int64, .numberAsInt64: .int64
        case .location: .location
        case .reference: .reference
        case .string: .string
        case .timestamp: .timestamp
        case .number: nil
        case .encryptedBytes, .encryptedDouble, .encryptedInt64, .encryptedLocation, .encryptedString,
             .encryptedTimestamp:
            .encryptedBytes
        }
    }
}

/// An index attribute of a field.
public enum FieldAttribute: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Equality lookups (`==`, `IN`, `BEGINSWITH` …).
    case queryable = "QUERYABLE"
    /// Full-text token search (`self CONTAINS 'word'`, `allTokens`).
    case searchable = "SEARCHABLE"
    /// Range searches and sorting.
    case sortable = "SORTABLE"

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// The full type of a schema field: a primitive type or `LIST<primitive>` (lists do not nest).
public struct SchemaFieldType: Sendable, Hashable, CustomStringConvertible {
    public var primitive: SchemaPrimitiveType
    public var isList: Bool

    public init(_ primitive: SchemaPrimitiveType, isList: Bool = false) {
        self.primitive = primitive
        self.isList = isList
    }

    /// `STRING`, `LIST<ENCRYPTED STRING>`, … as the schema language writes it.
    public var description: String { isList ? "LIST<\(primitive.schemaText)>" : primitive.schemaText }

    /// The stored type of this field's values (see `SchemaPrimitiveType.storedType`), or nil for `NUMBER`.
    public var storedType: FieldTypeName? { primitive.storedType.map { FieldTypeName($0, isList: isList) } }

    /// Whether a value of stored type `type` fits this field (a bare `NUMBER` takes INT64 and DOUBLE).
    public func accepts(_ type: FieldTypeName) -> Bool {
        if let stored = storedType { return stored == type }
        return type.isList == isList && (type.element == .int64 || type.element == .double)
    }

    /// Whether this type can carry `attribute`. CloudKit indexes neither assets, bytes nor encrypted
    /// values; only strings are token-searchable; references are only queryable (locations sort by
    /// distance, so they may be SORTABLE). Lists take
    /// the rules of their elements (exported schemas carry `LIST<STRING> QUERYABLE SEARCHABLE SORTABLE`).
    public func allows(_ attribute: FieldAttribute) -> Bool {
        switch primitive {
        case .asset, .bytes, .encryptedBytes, .encryptedDouble, .encryptedInt64, .encryptedLocation,
             .encryptedString, .encryptedTimestamp:
            return false
        case .string:
            return true
        case .double, .int64, .timestamp, .location, .number, .numberAsDouble, .numberAsInt64:
            return attribute != .searchable
        case .reference:
            return attribute == .queryable
        }
    }
}
