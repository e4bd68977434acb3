/// A security role named in `GRANT … TO role`: one of CloudKit's three implicit roles or one made
/// with `CREATE ROLE`.
public struct SchemaRole: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }

    /// The record's creator.
    public static let creator = SchemaRole("_creator")
    /// Any signed-in account.
    public static let icloud = SchemaRole("_icloud")
    /// Anyone.
    public static let world = SchemaRole("_world")

    /// The implicit roles, which every schema has without declaring them.
    public static let builtIn: [SchemaRole] = [.creator, .icloud, .world]

    public var isBuiltIn: Bool { SchemaRole.builtIn.contains(self) }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8) }

    public var description: String { rawValue }
}

/// What a grant allows on a record type's records in the public database.
public enum SchemaPermission: String, Sendable, Hashable, CaseIterable, Comparable {
    case read = "READ"
    case create = "CREATE"
    case write = "WRITE"

    /// READ, CREATE, WRITE: the order cktool writes them in.
    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
