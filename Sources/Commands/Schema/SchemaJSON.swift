import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore

/// The JSON shapes of the schema commands.
enum SchemaJSON {
    static func changes(_ diff: SchemaDiff) -> JSONValue {
        .array(diff.changes.map { .string($0.description) })
    }

    static func field(_ field: FieldSchema) -> JSONValue {
        .object([("name", .string(field.name)), ("type", .string(field.type.description)),
                 ("indexes", .array(field.attributes.sorted().map { .string($0.rawValue) }))])
    }

    static func recordType(_ type: RecordTypeSchema) -> JSONValue {
        .object([("name", .string(type.name)),
                 ("fields", .array(SchemaTable.shownFields(type).map(field))),
                 ("grants", .array(type.sortedGrants.map { grant in
                     .object([("role", .string(grant.role.rawValue)),
                              ("permissions", .array(grant.permissions.map { .string($0.rawValue) }))])
                 }))])
    }
}

/// The rows of `schema show`.
enum SchemaTable {
    /// The user fields, and the system fields that carry an index.
    static func shownFields(_ type: RecordTypeSchema) -> [FieldSchema] {
        type.sortedFields.filter { !$0.isSystem || !$0.attributes.isEmpty }
    }

    static func rows(_ types: [RecordTypeSchema]) -> [[String]] {
        types.flatMap { type -> [[String]] in
            let fields = shownFields(type)
            let grants = type.sortedGrants.map { "\($0.permissions.map(\.rawValue).joined(separator: ",")) \($0.role)" }
                .joined(separator: "; ")
            if fields.isEmpty { return [[type.name, "-", "-", "-", grants]] }
            return fields.enumerated().map { index, field in
                [type.name, field.name, field.type.description,
                 field.attributes.isEmpty ? "-" : field.attributes.sorted().map(\.rawValue).joined(separator: ","),
                 index == 0 ? grants : ""]
            }
        }
    }
}
