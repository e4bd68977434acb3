/// Something a deploy to production may not do.
public enum SchemaDeployViolation: Sendable, Hashable, CustomStringConvertible {
    case recordTypeRemoved(String)
    case fieldRemoved(recordType: String, field: String)
    case fieldTypeChanged(recordType: String, field: String, from: SchemaFieldType, to: SchemaFieldType)

    public var description: String {
        switch self {
        case .recordTypeRemoved(let t):
            "record type \(t) exists in production and cannot be removed"
        case .fieldRemoved(let t, let f):
            "field \(t).\(f) exists in production and cannot be removed"
        case .fieldTypeChanged(let t, let f, let from, let to):
            "field \(t).\(f) is \(from) in production and cannot become \(to)"
        }
    }
}

/// Whether promoting development to production is allowed: CloudKit's production schema only
/// grows. New types, fields, indexes, roles and grants are fine; removing a type or field that
/// production has, or changing a field's type, is not. Every violation is listed. Settling a bare
/// `NUMBER` with `PREFERRED AS` is not a type change; changing a settled one is.
public struct SchemaDeployCheck: Sendable, Hashable {
    public var violations: [SchemaDeployViolation]
    /// Everything the deploy would change, violations included.
    public var diff: SchemaDiff

    public init(development: CloudSchema, production: CloudSchema) {
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
