/// Something a deploy to production may not do.
public enum SchemaDeployViolation: Sendable, Hashable, CustomStringConvertible {
    case recordTypeRemoved(String)
    case fieldRemoved(recordType: String, field: String)
    case fieldTypeChanged(recordType: String, field: String, from: SchemaFieldType, to: SchemaFieldType)
    /// A grant that widens who may create or write records of a type production has (a new grant
    /// to `_icloud` or `_world`, or `_creator`'s write becoming `_icloud`'s): allowed only with
    /// `--allow-wider-grants`, since it hands existing production records to more accounts.
    case grantWidened(recordType: String, role: SchemaRole, permission: SchemaPermission)

    public var description: String {
        switch self {
        case .recordTypeRemoved(let t):
            "record type \(t) exists in production and cannot be removed"
        case .fieldRemoved(let t, let f):
            "field \(t).\(f) exists in production and cannot be removed"
        case .fieldTypeChanged(let t, let f, let from, let to):
            "field \(t).\(f) is \(from) in production and cannot become \(to)"
        case .grantWidened(let t, let r, let p):
            "grant \(p.rawValue) on \(t) to \(r) widens who may \(p == .write ? "write" : "create") \(t) records in production "
                + "(deploy with --allow-wider-grants to mean it)"
        }
    }
}

/// Whether promoting development to production is allowed: CloudKit's production schema only
/// grows. New types, fields, indexes, roles and grants are fine; removing a type or field that
/// production has, or changing a field's type, is not. Every violation is listed. Settling a bare
/// `NUMBER` with `PREFERRED AS` is not a type change; changing a settled one is. A grant that
/// widens who may create or write a production type's records is not additive either: it is a
/// violation unless `allowWiderGrants`, and listed in `widerGrants` in both cases.
public struct SchemaDeployCheck: Sendable, Hashable {
    public var violations: [SchemaDeployViolation]
    /// Everything the deploy would change, violations included.
    public var diff: SchemaDiff
    /// The grants that widen who may create or write existing production types (each a
    /// `grantWidened`), whether allowed or not.
    public var widerGrants: [SchemaDeployViolation]

    /// The roles whose new create or write permission widens a production type.
    static let wideningRoles: [SchemaRole] = [.icloud, .world]

    public init(development: CloudSchema, production: CloudSchema, allowWiderGrants: Bool = false) {
        widerGrants = SchemaDeployCheck.widenings(development: development, production: production)
        diff = SchemaDiff(from: production, to: development)
        violations = diff.changes.compactMap { change in
            switch change {
            case .recordTypeRemoved(let t):
                return .recordTypeRemoved(t)
            case .fieldRemoved(let t, let f):
                return .fieldRemoved(recordType: t, field: f.name)
            case .fieldTypeChanged(let t, let f, let from, let to):
                return SchemaDeployCheck.settles(from, to) ? nil : .fieldTypeChanged(recordType: t, field: f, from: from, to: to)
            default:
                return nil
            }
        }
        if !allowWiderGrants { violations += widerGrants }
    }

    /// For each type production has, each create or write permission that `_icloud` or `_world`
    /// gains (declared grants, or CloudKit's defaults when a type declares none).
    static func widenings(development: CloudSchema, production: CloudSchema) -> [SchemaDeployViolation] {
        var out: [SchemaDeployViolation] = []
        for before in production.sortedRecordTypes {
            guard let after = development.recordType(named: before.name) else { continue }
            for role in wideningRoles {
                let gained = after.effectivePermissions(for: role).subtracting(before.effectivePermissions(for: role))
                for permission in [SchemaPermission.create, .write] where gained.contains(permission) {
                    out.append(.grantWidened(recordType: before.name, role: role, permission: permission))
                }
            }
        }
        return out
    }

    /// `NUMBER` → `NUMBER PREFERRED AS INT64|DOUBLE`, same list-ness.
    static func settles(_ from: SchemaFieldType, _ to: SchemaFieldType) -> Bool {
        from.isList == to.isList && from.primitive == .number
            && (to.primitive == .numberAsInt64 || to.primitive == .numberAsDouble)
    }

    public var isAllowed: Bool { violations.isEmpty }

    /// One violation a line, or nil when the deploy is allowed.
    public var report: String? {
        violations.isEmpty ? nil : violations.map(\.description).joined(separator: "\n")
    }
}
