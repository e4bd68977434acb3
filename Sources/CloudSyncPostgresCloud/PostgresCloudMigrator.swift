import CloudSyncCloud
import CloudSyncCore
import CloudSyncPostgres

/// Creates, checks and upgrades a PostgreSQL cloud's tables: the SQLite `Migrator`'s ladder in
/// PostgreSQL. The steps are `PostgresCloudSchema.steps` (`Migrator.Step`: SQL per version);
/// the mark lives in `meta` (`format`, `version`, and the store `epoch`). A cloud already at this
/// build's version costs one statement on open; otherwise the missing steps run in order in one
/// transaction that holds an advisory lock, so concurrent first users create or upgrade once. A
/// cloud of a newer version is refused (`badDatabase`, exit 69) and never touched.
enum PostgresCloudMigrator {
    /// The advisory lock key of creation and upgrades ("cloudsync" in ASCII, folded).
    static let lockKey: Int64 = 0x636C_6F75_6473_796E

    /// What `meta` says, or nil when the cloud has no tables yet.
    struct Mark {
        var format: String?
        var version: Int64
        var epoch: UInt64?
    }

    /// Prepares the tables on `connection` (its search_path already set) and returns the epoch.
    static func prepare(_ connection: PostgresConnection, displayName: String) throws -> UInt64 {
        if let mark = try readMark(connection), try check(mark, displayName: displayName), let epoch = mark.epoch {
            return epoch
        }
        return try connection.transaction { connection throws -> UInt64 in
            try connection.queryPrepared("SELECT pg_advisory_xact_lock($1)", [.int64(lockKey)])
            let mark = try readMark(connection)
            if let mark, try check(mark, displayName: displayName), let epoch = mark.epoch { return epoch }
            for step in PostgresCloudSchema.steps where step.version > (mark?.version ?? 0) {
                try connection.execute(step.sql)
                if step.version == 1 {
                    try connection.query("INSERT INTO meta(key, value) VALUES ('format', $1), ('epoch', $2)",
                                         [.text(PostgresCloudSchema.format), .text(RandomID.hex(bytes: 8))])
                }
                try connection.query("""
                    INSERT INTO meta(key, value) VALUES ('version', $1)
                    ON CONFLICT(key) DO UPDATE SET value = excluded.value
                    """, [.text(String(step.version))])
            }
            guard let epoch = try readMark(connection)?.epoch else {
                throw CloudError(.badDatabase, "PostgreSQL cloud \(displayName) has no store epoch")
            }
            return epoch
        }
    }

    /// Reads the mark (one statement when `meta` exists).
    static func readMark(_ connection: PostgresConnection) throws -> Mark? {
        let exists = try connection.query("SELECT to_regclass('meta') IS NOT NULL").first?[0].bool ?? false
        guard exists else { return nil }
        var mark = Mark(format: nil, version: 0, epoch: nil)
        for row in try connection.query("SELECT key, value FROM meta WHERE key IN ('format', 'version', 'epoch')").rows {
            let value = row[1].text ?? ""
            switch row[0].text {
            case "format": mark.format = value
            case "version": mark.version = Int64(value) ?? 0
            case "epoch": mark.epoch = UInt64(value, radix: 16)
            default: break
            }
        }
        return mark
    }

    /// Checks a mark: ours and not newer than this build. Returns true when it is up to date.
    static func check(_ mark: Mark, displayName: String) throws(CloudError) -> Bool {
        guard mark.format == PostgresCloudSchema.format else {
            throw CloudError(.badDatabase,
                             "PostgreSQL database \(displayName) holds a 'meta' table that is not a cloudsync cloud's; use another database or ?schema=")
        }
        guard mark.version <= PostgresCloudSchema.latestVersion else {
            throw CloudError(.badDatabase, """
                PostgreSQL cloud \(displayName) has format version \(mark.version), newer than this cloudsync reads \
                (up to \(PostgresCloudSchema.latestVersion)); upgrade cloudsync
                """)
        }
        return mark.version == PostgresCloudSchema.latestVersion
    }
}
