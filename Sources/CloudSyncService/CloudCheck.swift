import CloudSyncCore

/// What `cloudsync cloud check` reports about a cloud's storage: its format and version, how
/// many rows each table holds, and the integrity problems found (empty when sound).
public struct CloudCheckReport: Sendable, Equatable {
    /// The format mark (`cloudsync-cloud`, `cloudsync-cloud-postgres`).
    public var format: String
    public var version: Int64
    /// Rows per table, in table order.
    public var counts: [(table: String, rows: Int64)]
    /// One line per problem.
    public var problems: [String]

    public init(format: String, version: Int64, counts: [(table: String, rows: Int64)], problems: [String]) {
        self.format = format
        self.version = version
        self.counts = counts
        self.problems = problems
    }

    public static func == (lhs: CloudCheckReport, rhs: CloudCheckReport) -> Bool {
        lhs.format == rhs.format && lhs.version == rhs.version && lhs.problems == rhs.problems
            && lhs.counts.map(\.table) == rhs.counts.map(\.table) && lhs.counts.map(\.rows) == rhs.counts.map(\.rows)
    }
}

/// A storage that can check itself (`cloudsync cloud check`).
public protocol CloudStorageChecking {
    /// Reads the format, the counts and runs `CloudIntegrityChecks` in one read transaction.
    func check() throws(CloudError) -> CloudCheckReport
}

/// The checks every SQL storage runs: the same tables on SQLite and PostgreSQL, so the same
/// queries, with the boolean literal of the dialect (`0`/`false`) for the records' `deleted`.
public enum CloudIntegrityChecks {
    /// The tables counted, in order.
    public static let tables = ["accounts", "databases", "zones", "records", "refs", "schema_fields", "declared_schemas",
                                "credentials", "assets", "kv_stores", "kv_values", "subscriptions", "notification_devices",
                                "notifications", "shares", "share_participants", "shared_zones", "user_profiles"]

    /// (what a nonzero count means, the query counting offending rows).
    public static func queries(false no: String) -> [(problem: String, sql: String)] {
        [
            ("zones whose counter is below their highest record sequence", """
                SELECT count(*) FROM zones z WHERE z.seq < (SELECT max(r.seq) FROM records r
                    WHERE r.db_id = z.db_id AND r.zone_id = z.zone_id)
                """),
            ("databases whose counter is below their highest zone change", """
                SELECT count(*) FROM databases d WHERE d.seq < (SELECT max(z.db_seq) FROM zones z WHERE z.db_id = d.db_id)
                """),
            ("zones whose record count differs from their live records", """
                SELECT count(*) FROM zones z WHERE z.deleted = 0 AND z.record_count <> (SELECT count(*) FROM records r
                    WHERE r.db_id = z.db_id AND r.zone_id = z.zone_id AND r.deleted = \(no))
                """),
            ("zones of no database", """
                SELECT count(*) FROM zones z WHERE NOT EXISTS (SELECT 1 FROM databases d WHERE d.db_id = z.db_id)
                """),
            ("databases without their _defaultZone", """
                SELECT count(*) FROM databases d WHERE NOT EXISTS (SELECT 1 FROM zones z
                    WHERE z.db_id = d.db_id AND z.name = '_defaultZone' AND z.deleted = 0)
                """),
            ("records outside a live zone (orphans)", """
                SELECT count(*) FROM records r WHERE NOT EXISTS (SELECT 1 FROM zones z
                    WHERE z.db_id = r.db_id AND z.zone_id = r.zone_id AND z.deleted = 0)
                """),
            ("references outside a live zone (orphans)", """
                SELECT count(*) FROM refs f WHERE NOT EXISTS (SELECT 1 FROM zones z
                    WHERE z.db_id = f.db_id AND z.zone_id = f.zone_id AND z.deleted = 0)
                """),
            ("assets of no database (orphans)", """
                SELECT count(*) FROM assets a WHERE NOT EXISTS (SELECT 1 FROM databases d WHERE d.db_id = a.db_id)
                """),
            ("subscriptions of no database (orphans)", """
                SELECT count(*) FROM subscriptions s WHERE NOT EXISTS (SELECT 1 FROM databases d WHERE d.db_id = s.db_id)
                """),
            ("key-value stores whose counter is below their highest key sequence", """
                SELECT count(*) FROM kv_stores k WHERE k.seq < (SELECT max(v.seq) FROM kv_values v WHERE v.kv_id = k.kv_id)
                """),
            ("key-value entries of no store (orphans)", """
                SELECT count(*) FROM kv_values v WHERE NOT EXISTS (SELECT 1 FROM kv_stores k WHERE k.kv_id = v.kv_id)
                """),
        ]
    }
}
