import CloudSyncCore
import CloudSyncService
import CloudSyncPostgres

/// Creates, checks and upgrades a PostgreSQL cloud's tables with Core's `MigrationLadder`, the
/// runner the SQLite files use too. The steps are `PostgresCloudSchema.steps` (SQL per version);
/// the mark lives in `meta` (`format`, `version`, and the store `epoch`). A cloud already at this
/// build's version costs one mark read on open; otherwise the missing steps run in order in one
/// transaction that holds an advisory lock (`PostgresMigrationTarget`), so concurrent first users
/// create or upgrade once. A cloud of a newer version is refused (`badDatabase`, exit 69) and
/// never touched.
enum PostgresCloudMigrator {
    /// The ladder of a PostgreSQL cloud's tables.
    static let ladder = MigrationLadder(format: PostgresCloudSchema.format, fileKind: "PostgreSQL cloud",
                                        steps: PostgresCloudSchema.steps)

    /// What `meta` says, or nil when the cloud has no tables yet.
    struct Mark {
        var format: String?
        var version: Int64
        var epoch: UInt64?
    }

    /// Prepares the tables on `connection` (its search_path already set) and returns the epoch.
    static func prepare(_ connection: PostgresConnection, displayName: String) throws -> UInt64 {
        let target = PostgresMigrationTarget(connection: connection)
        do {
            try ladder.prepare(target, name: displayName) {
                let epoch = RandomID.hex(bytes: 8)
                try connection.query("INSERT INTO meta(key, value) VALUES ('epoch', $1)", [.text(epoch)])
                target.epoch = UInt64(epoch, radix: 16)
            }
        } catch let error as MigrationError {
            throw cloudError(error, displayName: displayName)
        }
        guard let epoch = target.epoch else {
            throw CloudError(.badDatabase, "PostgreSQL cloud \(displayName) has no store epoch")
        }
        return epoch
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

    /// The ladder's refusal of a foreign or newer cloud, as this backend words it.
    static func cloudError(_ error: MigrationError, displayName: String) -> CloudError {
        switch error {
        case .foreignFile:
            CloudError(.badDatabase,
                       "PostgreSQL database \(displayName) holds a 'meta' table that is not a cloudsync cloud's; use another database or ?schema=")
        case .newerFormat(_, _, let version, let supported):
            CloudError(.badDatabase, """
                PostgreSQL cloud \(displayName) has format version \(version), newer than this cloudsync reads \
                (up to \(supported)); upgrade cloudsync
                """)
        }
    }
}
