/// One field of a record type: its name, type and index attributes.
public struct FieldSchema: Sendable, Hashable {
    public var name: String
    public var type: SchemaFieldType
    public var attributes: Set<FieldAttribute>

    public init(name: String, type: SchemaFieldType, attributes: Set<FieldAttribute> = []) {
        self.name = name
        self.type = type
        self.attributes = attributes
    }

    public var isQueryable: Bool { attributes.contains(.queryable) }
    public var isSortable: Bool { attributes.contains(.sortable) }
    public var isSearchable: Bool { attributes.contains(.searchable) }

    /// Whether this is one of the implicit system fields (`___recordID`, …).
    public var isSystem: Bool { FieldSchema.systemFieldTypes[name] != nil }

    /// The implicit fields every record type has, with their fixed types. A schema may list them,
    /// with the same type, to give them indexes.
    public static let systemFieldTypes: [String: SchemaFieldType] = [
        "___createTime": SchemaFieldType(.timestamp),
        "___createdBy": SchemaFieldType(.reference),
        "___etag": SchemaFieldType(.string),
        "___modTime": SchemaFieldType(.timestamp),
        "___modifiedBy": SchemaFieldType(.reference),
        "___recordID": SchemaFieldType(.reference),
    ]

    /// The system field that holds the record name: `recordName` queries need it QUERYABLE.
    public static let recordIDField = "___recordID"

    /// The system fields without indexes, in cktool's order.
    public static var systemFields: [FieldSchema] {
        systemFieldTypes.keys.sorted(by: SchemaName.precedes).map { FieldSchema(name: $0, type: systemFieldTypes[$0]!) }
    }
}

/// Name rules shared by the parser and the printer.
enum SchemaName {
    /// cktool's order: by UTF-8 bytes (so `Zeta` < `___recordID` < `alpha`).
    static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// The words that must be quoted to be names.
    static let reserved: Set<String> = ["GRANT", "PREFERRED", "QUERYABLE", "SORTABLE", "SEARCHABLE"]

    /// Whether `name` can be written without quotes: `[A-Za-z][A-Za-z0-9_]*` and not reserved.
    static func isPlain(_ name: String) -> Bool {
        var first = true
        for byte in name.utf8 {
            let letter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            let digit = byte >= 0x30 && byte <= 0x39
            if first ? !letter : !(letter || digit || byte == 0x5F) { return false }
            first = false
        }
        return !first && !reserved.contains(name.uppercased())
    }

    /// `name`, quoted when it has to be.
    static func written(_ name: String) -> String { isPlain(name) ? name : "\"\(name)\"" }
}
