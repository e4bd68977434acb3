/// One record type of a schema: its fields (always including the six system fields) and its
/// grants.
public struct RecordTypeSchema: Sendable, Hashable {
    public var name: String
    /// By field name. Always holds the system fields, with whatever indexes the schema gave them.
    public private(set) var fields: [String: FieldSchema]
    /// The permissions granted to each role. Empty when the schema declares no grants, in which
    /// case `effectivePermissions(for:)` gives CloudKit's defaults.
    public var grants: [SchemaRole: Set<SchemaPermission>]

    /// A type with only the system fields and no grants.
    public init(name: String) {
        self.name = name
        fields = Dictionary(uniqueKeysWithValues: FieldSchema.systemFields.map { ($0.name, $0) })
        grants = [:]
    }

    /// A type with these fields (system fields added where missing) and grants.
    public init(name: String, fields: [FieldSchema], grants: [SchemaRole: Set<SchemaPermission>] = [:]) {
        self.init(name: name)
        for field in fields { setField(field) }
        self.grants = grants.filter { !$0.value.isEmpty }
    }

    /// Adds or replaces a field. A system field keeps its fixed type.
    public mutating func setField(_ field: FieldSchema) {
        var field = field
        if let fixed = FieldSchema.systemFieldTypes[field.name] { field.type = fixed }
        fields[field.name] = field
    }

    /// Removes a field; system fields only lose their indexes.
    public mutating func removeField(named name: String) {
        if let fixed = FieldSchema.systemFieldTypes[name] {
            fields[name] = FieldSchema(name: name, type: fixed)
        } else {
            fields[name] = nil
        }
    }

    /// The field called `name`, or nil.
    public func field(named name: String) -> FieldSchema? { fields[name] }

    /// Every field, in cktool's order (by UTF-8 bytes of the name).
    public var sortedFields: [FieldSchema] {
        fields.values.sorted { SchemaName.precedes($0.name, $1.name) }
    }

    /// The fields that are not system fields, in cktool's order.
    public var userFields: [FieldSchema] { sortedFields.filter { !$0.isSystem } }

    public func isQueryable(_ field: String) -> Bool { fields[field]?.isQueryable ?? false }
    public func isSortable(_ field: String) -> Bool { fields[field]?.isSortable ?? false }
    public func isSearchable(_ field: String) -> Bool { fields[field]?.isSearchable ?? false }

    /// The permissions granted to `role` (empty if none).
    public func grants(for role: SchemaRole) -> Set<SchemaPermission> { grants[role] ?? [] }

    /// Whether the schema declares any grant for this type.
    public var declaresGrants: Bool { !grants.isEmpty }

    /// CloudKit's defaults for a type without grants: `_world` reads, `_icloud` creates, the
    /// creator writes.
    public static let defaultGrants: [SchemaRole: Set<SchemaPermission>] = [
        .world: [.read], .icloud: [.create], .creator: [.write],
    ]

    /// The permissions `role` has: the declared grants, or the defaults when none are declared.
    public func effectivePermissions(for role: SchemaRole) -> Set<SchemaPermission> {
        (declaresGrants ? grants : RecordTypeSchema.defaultGrants)[role] ?? []
    }

    /// Whether any of `roles` has `permission` (declared grants, or the defaults).
    public func allows(_ permission: SchemaPermission, toAnyOf roles: some Sequence<SchemaRole>) -> Bool {
        roles.contains { effectivePermissions(for: $0).contains(permission) }
    }

    /// The grants in cktool's order: by role name's UTF-8 bytes (`"_creator"`, `"_icloud"`, `"_world"`).
    public var sortedGrants: [(role: SchemaRole, permissions: [SchemaPermission])] {
        grants.keys.sorted().compactMap { role in
            let permissions = grants[role]!.sorted()
            return permissions.isEmpty ? nil : (role, permissions)
        }
    }
}
