/// A store a `MigrationLadder` creates and upgrades: an SQLite file (`CloudSyncSQLite`'s
/// `Migrator`), a PostgreSQL cloud's schema. The ladder holds the rules (which steps, when a
/// store is foreign or too new); the target only reads, writes and locks.
public protocol MigrationTarget {
    /// What the store says about itself, or nil when it has no mark yet (no `meta` table: new,
    /// empty, or not ours).
    func readMark() throws -> MigrationMark?

    /// True when the store holds nothing at all, so that a format may be created in it.
    func holdsNothing() throws -> Bool

    /// Runs `step`'s statements and records its version; at version 1 it also writes the format
    /// mark `format`. Called inside `withExclusiveLock`.
    func apply(_ step: MigrationStep, format: String) throws

    /// Runs `body` in one transaction that holds the store's exclusive lock, so that concurrent
    /// openers create or upgrade the store once.
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T
}

/// One version of a stored format: the statements that bring a store from `version - 1` to
/// `version`.
public struct MigrationStep: Sendable {
    /// The version the store has once `sql` ran.
    public let version: Int64
    /// One or more statements.
    public let sql: String

    /// A step to `version`.
    public init(version: Int64, sql: String) {
        self.version = version
        self.sql = sql
    }
}

/// What a store says about itself: its format mark (nil without one) and version.
public struct MigrationMark: Sendable, Equatable {
    public var format: String?
    public var version: Int64

    public init(format: String?, version: Int64) {
        self.format = format
        self.version = version
    }
}
