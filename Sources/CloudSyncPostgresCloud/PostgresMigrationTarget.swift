import CloudSyncCore
import CloudSyncPostgres

/// A PostgreSQL cloud's schema as a `MigrationTarget`: the mark is `meta`'s `format` and
/// `version`, the exclusive lock a transaction holding `lockKey`'s advisory lock. It keeps the
/// store epoch of the last mark read (or of the creation), so opening costs one mark read.
final class PostgresMigrationTarget: MigrationTarget {
    /// The advisory lock key of creation and upgrades ("cloudsync" in ASCII, folded).
    static let lockKey: Int64 = 0x636C_6F75_6473_796E

    let connection: PostgresConnection
    /// The store epoch `meta` held at the last read, or the one the creation wrote.
    var epoch: UInt64?

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    func readMark() throws -> MigrationMark? {
        guard let mark = try PostgresCloudMigrator.readMark(connection) else {
            epoch = nil
            return nil
        }
        epoch = mark.epoch
        return MigrationMark(format: mark.format, version: mark.version)
    }

    /// A schema without `meta` is taken as empty: step 1 then fails on any table it would make
    /// that is already there.
    func holdsNothing() throws -> Bool { true }

    func apply(_ step: MigrationStep, format: String) throws {
        try connection.execute(step.sql)
        if step.version == 1 {
            try connection.query("INSERT INTO meta(key, value) VALUES ('format', $1)", [.text(format)])
        }
        try connection.query("""
            INSERT INTO meta(key, value) VALUES ('version', $1)
            ON CONFLICT(key) DO UPDATE SET value = excluded.value
            """, [.text(String(step.version))])
    }

    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction { connection throws -> T in
            try connection.queryPrepared("SELECT pg_advisory_xact_lock($1)", [.int64(Self.lockKey)])
            return try body()
        }
    }
}
