import CloudSyncCore

/// One value of a copied row. Booleans travel as `int` 0/1 (SQLite's form).
public enum CloudCell: Sendable, Equatable {
    case null
    case int(Int64)
    case text(String)
    case bytes([UInt8])
}

/// How a copied column is typed on either backend.
public enum CloudColumnKind: Sendable {
    case int, bool, text, bytes
}

/// A whole cloud as rows, for `cloudsync cloud copy`: every table of `CloudCopyTables` and the
/// store epoch (as its hex text), so devices keep their tokens on the copy.
public struct CloudDump: Sendable {
    public var epoch: String
    /// Rows per table, in `CloudCopyTables.tables` order.
    public var tables: [(name: String, rows: [[CloudCell]])]

    public init(epoch: String, tables: [(name: String, rows: [[CloudCell]])]) {
        self.epoch = epoch
        self.tables = tables
    }
}

/// A storage that can be copied whole (`cloudsync cloud copy`).
public protocol CloudStorageCopying: CloudStorageChecking {
    /// Every row of every table, read in one snapshot.
    func dump() throws(CloudError) -> CloudDump
    /// Replaces everything with `dump` in one transaction (all or nothing), keeping its IDs,
    /// sequences and epoch, so the tokens of the source stay valid here.
    func load(_ dump: CloudDump) throws(CloudError)
}

/// The tables and columns a copy carries: the same on SQLite and PostgreSQL. Parents before
/// children; the identity columns (`db_id`, `zone_id`, `kv_id`, `notification_id`) are copied.
public enum CloudCopyTables {
    public static let tables: [(name: String, columns: [(name: String, kind: CloudColumnKind)])] = [
        ("accounts", [("name", .text), ("user_record_name", .text), ("created_ms", .int)]),
        ("user_profiles", [("account", .text), ("first_name", .text), ("last_name", .text), ("discoverable", .bool),
                           ("modified_ms", .int)]),
        ("databases", [("db_id", .int), ("container", .text), ("scope", .text), ("owner", .text), ("seq", .int)]),
        ("zones", [("zone_id", .int), ("db_id", .int), ("name", .text), ("atomic", .bool), ("seq", .int),
                   ("floor_seq", .int), ("db_seq", .int), ("record_count", .int), ("deleted", .int), ("created_ms", .int)]),
        ("records", [("db_id", .int), ("zone_id", .int), ("name", .text), ("type", .text), ("seq", .int),
                     ("change_tag", .text), ("deleted", .bool), ("fields", .text), ("has_refs", .bool),
                     ("created_ms", .int), ("created_user", .text), ("created_device", .text), ("modified_ms", .int),
                     ("modified_user", .text), ("modified_device", .text)]),
        ("refs", [("db_id", .int), ("zone_id", .int), ("target", .text), ("source", .text)]),
        ("schema_fields", [("container", .text), ("record_type", .text), ("field", .text), ("type", .text)]),
        ("declared_schemas", [("container", .text), ("text", .text)]),
        ("credentials", [("id", .text), ("account", .text), ("kind", .text), ("secret", .text), ("created_ms", .int),
                         ("last_used_ms", .int)]),
        ("assets", [("db_id", .int), ("checksum", .text), ("size", .int), ("data", .bytes), ("created_ms", .int)]),
        ("kv_stores", [("kv_id", .int), ("container", .text), ("owner", .text), ("seq", .int)]),
        ("kv_values", [("kv_id", .int), ("key", .text), ("type", .text), ("value", .text), ("deleted", .bool),
                       ("seq", .int), ("modified_ms", .int), ("modified_device", .text)]),
        ("subscriptions", [("db_id", .int), ("owner", .text), ("subscription_id", .text), ("kind", .text),
                           ("zone_name", .text), ("record_type", .text), ("definition", .text), ("created_ms", .int),
                           ("modified_ms", .int)]),
        ("shares", [("db_id", .int), ("zone_name", .text), ("title", .text), ("public_permission", .text), ("token", .text),
                    ("created_ms", .int), ("modified_ms", .int)]),
        ("share_participants", [("db_id", .int), ("zone_name", .text), ("participant", .text), ("permission", .text),
                                ("accepted", .bool)]),
        ("shared_zones", [("db_id", .int), ("owner", .text), ("zone_name", .text), ("live", .bool), ("db_seq", .int)]),
        ("notification_devices", [("container", .text), ("owner", .text), ("device", .text), ("registered_ms", .int),
                                  ("seen_ms", .int)]),
        ("notifications", [("notification_id", .int), ("container", .text), ("owner", .text), ("device", .text),
                           ("coalesce_key", .text), ("payload", .text), ("created_ms", .int)]),
    ]

    /// `SELECT columns FROM table`.
    public static func select(_ table: (name: String, columns: [(name: String, kind: CloudColumnKind)])) -> String {
        "SELECT " + table.columns.map(\.name).joined(separator: ", ") + " FROM " + table.name
    }

    /// `INSERT INTO table(columns) VALUES (placeholders)`; `placeholder(i)` is `?` or `$i`.
    public static func insert(_ table: (name: String, columns: [(name: String, kind: CloudColumnKind)]),
                              placeholder: (Int) -> String) -> String {
        "INSERT INTO \(table.name)(" + table.columns.map(\.name).joined(separator: ", ") + ") VALUES ("
            + table.columns.indices.map { placeholder($0 + 1) }.joined(separator: ", ") + ")"
    }
}
