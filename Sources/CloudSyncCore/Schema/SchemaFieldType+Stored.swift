/// The one mapping from a stored field type to its schema type, used where a schema grows from
/// saved values (`StorageBackedCloud+Schema`) and where `schema init` declares a local store's fields.
extension SchemaFieldType {
    /// The schema type of a field that grew from values of stored type `stored`.
    public init(stored: FieldTypeName) {
        let primitive: SchemaPrimitiveType = switch stored.element {
        case .asset: .asset
        case .bytes: .bytes
        case .double: .double
        case .int64: .int64
        case .location: .location
        case .reference: .reference
        case .string: .string
        case .timestamp: .timestamp
        case .encryptedBytes: .encryptedBytes
        }
        self.init(primitive, isList: stored.isList)
    }
}
