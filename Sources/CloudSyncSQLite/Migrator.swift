import CloudSyncCore

/// The migration ladder of an SQLite file format (the cloud file, the device file): Core's
/// `MigrationLadder` over a connection (`SQLiteMigrationTarget`).
///
/// A file carries its format mark (`meta.format`) and version (SQLite's `user_version`); step 1
/// must create the `meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)` table. The exclusive lock
/// is a `BEGIN IMMEDIATE` transaction.
public struct Migrator: Sendable {
    /// One version of a format: the SQL that upgrades a file from `version - 1` to `version`.
    public typealias Step = MigrationStep
    /// What a file says about itself: its format mark (nil without one) and version.
    public typealias Mark = MigrationMark

    /// The ladder this file format climbs.
    public let ladder: MigrationLadder

    /// The format mark stored in `meta`, such as `cloudsync-device`.
    public var format: String { ladder.format }
    /// How messages name a file of this format, such as "device file".
    public var fileKind: String { ladder.fileKind }
    /// The steps, in version order 1, 2, 3, …
    public var steps: [Step] { ladder.steps }
    /// The version this build writes and reads.
    public var latestVersion: Int64 { ladder.latestVersion }

    /// A ladder. `steps` must be numbered 1, 2, 3, … in order.
    public init(format: String, fileKind: String, steps: [Step]) {
        ladder = MigrationLadder(format: format, fileKind: fileKind, steps: steps)
    }

    /// The statement that reads a file's format from its `meta` table.
    public static let formatQuery = "SELECT value FROM meta WHERE key='format'"

    /// The file's mark, or nil when it has no `meta` table (new, empty, or not ours).
    public func readMark(_ db: Connection) throws(SQLiteError) -> Mark? {
        try SQLiteMigrationTarget(db).readSQLiteMark()
    }

    /// Checks a mark read from the file at `path`: ours, and not newer than this build.
    /// - Returns: true when the file needs an upgrade.
    public func check(_ mark: Mark, path: String) throws(MigrationError) -> Bool {
        try ladder.check(mark, name: path)
    }

    /// Opens the format on `db`: an up-to-date file costs the one mark statement; an older one
    /// is upgraded; an empty one (no tables at all) is created, with `onCreate` run in the same
    /// transaction (for values such as a store epoch).
    /// - Returns: true when this call created the format in an empty file.
    /// - Throws: `MigrationError` for a foreign or newer file, `SQLiteError` from storage.
    @discardableResult
    public func prepare(_ db: Connection, path: String,
                        onCreate: (Connection) throws -> Void = { _ in }) throws -> Bool {
        try ladder.prepare(SQLiteMigrationTarget(db), name: path) { try onCreate(db) }
    }

    /// Upgrades an older file to the latest version, in one transaction (a savepoint inside
    /// one). The version is re-read under the write lock, so concurrent openers upgrade once.
    public func upgrade(_ db: Connection, path: String) throws {
        try ladder.upgrade(SQLiteMigrationTarget(db), name: path)
    }

    /// Applies the steps after `from` up to `version` and marks the file (for fixtures of older
    /// formats too). Call inside a transaction.
    public func apply(_ db: Connection, upTo version: Int64, from: Int64 = 0) throws {
        try ladder.apply(SQLiteMigrationTarget(db), upTo: version, from: from)
    }
}
