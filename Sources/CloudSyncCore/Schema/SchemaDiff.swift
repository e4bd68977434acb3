/// One difference between two schemas.
public enum SchemaChange: Sendable, Hashable, CustomStringConvertible {
    case roleAdded(SchemaRole)
    case roleRemoved(SchemaRole)
    case recordTypeAdded(String)
    case recordTypeRemoved(String)
    case fieldAdded(recordType: String, field: FieldSchema)
    case fieldRemoved(recordType: String, field: FieldSchema)
    case fieldTypeChanged(recordType: String, field: String, from: SchemaFieldType, to: SchemaFieldType)
    case indexAdded(recordType: String, field: String, FieldAttribute)
    case indexRemoved(recordType: String, field: String, FieldAttribute)
    case grantAdded(recordType: String, role: SchemaRole, SchemaPermission)
    case grantRemoved(recordType: String, role: SchemaRole, SchemaPermission)

    /// One line: `+ field Note.title STRING`, `~ field Note.count INT64 -> DOUBLE`, …
    public var description: String {
        switch self {
        case .roleAdded(let r): "+ role \(r)"
        case .roleRemoved(let r): "- role \(r)"
        case .recordTypeAdded(let t): "+ record type \(t)"
        case .recordTypeRemoved(let t): "- record type \(t)"
        case .fieldAdded(let t, let f): "+ field \(t).\(f.name) \(f.type)"
        case .fieldRemoved(let t, let f): "- field \(t).\(f.name) \(f.type)"
        case .fieldTypeChanged(let t, let f, let from, let to): "~ field \(t).\(f) \(from) -> \(to)"
        case .indexAdded(let t, let f, let a): "+ index \(t).\(f) \(a.rawValue)"
        case .indexRemoved(let t, let f, let a): "- index \(t).\(f) \(a.rawValue)"
        case .grantAdded(let t, let r, let p): "+ grant \(p.rawValue) on \(t) to \(r)"
        case .grantRemoved(let t, let r, let p): "- grant \(p.rawValue) on \(t) to \(r)"
        }
    }
}

/// What changes going from one schema to another (what `schema import` or `schema deploy` would
/// do), in a stable order: roles, then record types by name and, within one, fields by name
/// (added, removed, type changes, indexes), then grants by role.
public struct SchemaDiff: Sendable, Hashable {
    public var changes: [SchemaChange]

    public init(from old: CloudSchema, to new: CloudSchema) {
        var changes: [SchemaChange] = []
        for role in old.roles.union(new.roles).sorted() {
            if !old.roles.contains(role) { changes.append(.roleAdded(role)) }
            if !new.roles.contains(role) { changes.append(.roleRemoved(role)) }
        }
        let names = Set(old.recordTypes.keys).union(new.recordTypes.keys).sorted(by: SchemaName.precedes)
        for name in names {
            let before = old.recordTypes[name]
            let after = new.recordTypes[name]
            if before == nil { changes.append(.recordTypeAdded(name)) }
            if after == nil { changes.append(.recordTypeRemoved(name)) }
            // A new type's fields, indexes and grants are listed as additions to an empty type;
            // a removed type's contents are not listed again.
            guard let after else { continue }
            let from = before ?? RecordTypeSchema(name: name)
            changes += SchemaDiff.fieldChanges(from: from, to: after)
            changes += SchemaDiff.grantChanges(from: from, to: after)
        }
        self.changes = changes
    }

    static func fieldChanges(from old: RecordTypeSchema, to new: RecordTypeSchema) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        let type = new.name
        for name in Set(old.fields.keys).union(new.fields.keys).sorted(by: SchemaName.precedes) {
            let before = old.fields[name]
            let after = new.fields[name]
            switch (before, after) {
            case (nil, let added?):
                changes.append(.fieldAdded(recordType: type, field: added))
            case (let removed?, nil):
                changes.append(.fieldRemoved(recordType: type, field: removed))
            case (let before?, let after?) where before.type != after.type:
                changes.append(.fieldTypeChanged(recordType: type, field: name, from: before.type, to: after.type))
            default:
                break
            }
            let oldIndexes = before?.attributes ?? []
            let newIndexes = after?.attributes ?? []
            for attribute in newIndexes.subtracting(oldIndexes).sorted() {
                changes.append(.indexAdded(recordType: type, field: name, attribute))
            }
            if after != nil {
                for attribute in oldIndexes.subtracting(newIndexes).sorted() {
                    changes.append(.indexRemoved(recordType: type, field: name, attribute))
                }
            }
        }
        return changes
    }

    static func grantChanges(from old: RecordTypeSchema, to new: RecordTypeSchema) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        for role in Set(old.grants.keys).union(new.grants.keys).sorted() {
            let before = old.grants(for: role)
            let after = new.grants(for: role)
            for p in after.subtracting(before).sorted() { changes.append(.grantAdded(recordType: new.name, role: role, p)) }
            for p in before.subtracting(after).sorted() { changes.append(.grantRemoved(recordType: new.name, role: role, p)) }
        }
        return changes
    }

    public var isEmpty: Bool { changes.isEmpty }

    /// One change a line, or `no differences`.
    public var summary: String {
        changes.isEmpty ? "no differences" : changes.map(\.description).joined(separator: "\n")
    }
}
