/// Writes a schema as .ckdb text the way `cktool export-schema` lays it out: `DEFINE SCHEMA`, a
/// blank line, then each statement indented four spaces and followed by a blank line between;
/// roles first, then record types, each in UTF-8 byte order of the name; in a type, every field
/// (system fields included) in byte order of the name with the types aligned one space after the
/// longest name, attributes as `QUERYABLE SEARCHABLE SORTABLE`, then one `GRANT` line per role
/// (`READ, CREATE, WRITE`). Names are quoted when they are not plain.
///
/// Deterministic: `SchemaParser.parse(print(s)) == s` and printing that again gives the same bytes.
public enum SchemaPrinter {
    public static func print(_ schema: CloudSchema) -> String {
        var out = "DEFINE SCHEMA\n"
        for role in schema.sortedRoles {
            out += "\n    CREATE ROLE \(SchemaName.written(role.rawValue));\n"
        }
        for type in schema.sortedRecordTypes {
            out += "\n" + recordType(type)
        }
        return out
    }

    /// One `RECORD TYPE name ( … );` block, indented for inside `DEFINE SCHEMA`, ending in a newline.
    public static func recordType(_ type: RecordTypeSchema) -> String {
        var lines: [String] = []
        let fields = type.sortedFields
        let width = fields.map { SchemaName.written($0.name).count }.max() ?? 0
        for field in fields {
            let name = SchemaName.written(field.name)
            var line = name + String(repeating: " ", count: width - name.count + 1) + field.type.description
            for attribute in field.attributes.sorted() { line += " " + attribute.rawValue }
            lines.append(line)
        }
        for (role, permissions) in type.sortedGrants {
            lines.append("GRANT " + permissions.map(\.rawValue).joined(separator: ", ") + " TO " + grantee(role))
        }
        var out = "    RECORD TYPE \(SchemaName.written(type.name)) (\n"
        for (i, line) in lines.enumerated() {
            out += "        " + line + (i == lines.count - 1 ? "\n" : ",\n")
        }
        return out + "    );\n"
    }

    /// The implicit roles are written quoted, as cktool does; others only when they must be.
    static func grantee(_ role: SchemaRole) -> String {
        role.isBuiltIn ? "\"\(role.rawValue)\"" : SchemaName.written(role.rawValue)
    }
}
