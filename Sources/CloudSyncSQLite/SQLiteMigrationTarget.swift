import CloudSyncCore

/// An SQLite file as a `MigrationTarget`: the mark is `meta.format` and `user_version`, the
/// exclusive lock a `BEGIN IMMEDIATE` transaction (a savepoint inside one).
public struct SQLiteMigrationTarget: MigrationTarget {
    /// The file's connection.
    public let db: Connection

    /// The target of the file `db` has open.
    public init(_ db: Connection) {
        self.db = db
    }

    public func readMark() throws -> MigrationMark? {
        try readSQLiteMark()
    }

    /// The mark, with SQLite's own error type: two statements, since reading `user_version`
    /// inside a query (`pragma_user_version`) creates a virtual table whose declaration SQLite
    /// parses, which cost a one-shot command more than both statements together.
    func readSQLiteMark() throws(SQLiteError) -> MigrationMark? {
        let format: String?
        do {
            let statement = try db.prepare(Migrator.formatQuery)
            defer { statement.reset() }
            format = try statement.step() && !statement.isNull(0) ? statement.string(0) : nil
        } catch where error.isNoSuchTable {
            return nil
        }
        let version = try db.prepare("PRAGMA user_version")
        defer { version.reset() }
        return MigrationMark(format: format, version: try version.step() ? version.int64(0) : 0)
    }

    public func holdsNothing() throws -> Bool {
        try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table'") ?? 0 == 0
    }

    public func apply(_ step: MigrationStep, format: String) throws {
        try db.execute(step.sql)
        if step.version == 1 {
            try db.run("INSERT INTO meta(key, value) VALUES ('format', ?)", format)
        }
        try db.setUserVersion(step.version)
    }

    public func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(.immediate, body)
    }
}
