/// A container's schema in the CloudKit Schema Language's terms: record types and the roles made
/// with `CREATE ROLE`. Pure data: `SchemaParser` reads it from .ckdb text, `SchemaPrinter` writes
/// it back, `SchemaDiff` and `SchemaDeployCheck` compare two.
public struct CloudSchema: Sendable, Hashable {
    /// By record type name.
    public var recordTypes: [String: RecordTypeSchema]
    /// The roles declared with `CREATE ROLE` (never the implicit `_creator`, `_icloud`, `_world`).
    public var roles: Set<SchemaRole>

    public init(recordTypes: [RecordTypeSchema] = [], roles: Set<SchemaRole> = []) {
        self.recordTypes = Dictionary(recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.roles = roles.filter { !$0.isBuiltIn }
    }

    /// The record type called `name`, or nil.
    public func recordType(named name: String) -> RecordTypeSchema? { recordTypes[name] }

    /// The field `field` of type `type`, or nil.
    public func field(_ field: String, of type: String) -> FieldSchema? { recordTypes[type]?.field(named: field) }

    /// The record types in cktool's order (by UTF-8 bytes of the name).
    public var sortedRecordTypes: [RecordTypeSchema] {
        recordTypes.values.sorted { SchemaName.precedes($0.name, $1.name) }
    }

    /// The declared roles in name order.
    public var sortedRoles: [SchemaRole] { roles.sorted() }

    /// Whether `role` can be named in a grant: an implicit role or a declared one.
    public func knows(_ role: SchemaRole) -> Bool { role.isBuiltIn || roles.contains(role) }

    /// Every (record type, permissions) that `role` is granted explicitly.
    public func grants(for role: SchemaRole) -> [(recordType: String, permissions: Set<SchemaPermission>)] {
        sortedRecordTypes.compactMap { type in
            let permissions = type.grants(for: role)
            return permissions.isEmpty ? nil : (type.name, permissions)
        }
    }

    /// Adds or replaces a record type.
    public mutating func setRecordType(_ type: RecordTypeSchema) { recordTypes[type.name] = type }
}
