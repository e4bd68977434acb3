/// The one migration ladder of every cloudsync file format (the cloud file, the device file).
///
/// A format is an ordered list of steps, each the SQL text that brings a file from the previous
/// version to its own (step 1 creates the format from nothing and must create the
/// `meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)` table). A file carries its format mark
/// (`meta.format`) and version (SQLite's `user_version`); the steps it lacks are applied in
/// order, each with its version bump in the same transaction. A file of a newer version than
/// this build knows is refused, never touched.
///
/// The interface is storage-neutral where that is cheap (steps are SQL text per version), so a
/// server backend can keep its own ladder with the same shape.
public struct Migrator: Sendable {
    /// One version of a format: the SQL that upgrades a file from `version - 1` to `version`.
    public struct Step: Sendable {
        /// The version the file has once `sql` ran.
        public let version: Int64
        /// One or more statements.
        public let sql: String

        /// A step to `version`.
        public init(version: Int64, sql: String) {
            self.version = version
            self.sql = sql
        }
    }

    /// What a file says about itself: its format mark (nil without one) and version.
    public struct Mark: Sendable, Equatable {
        public var format: String?
        public var version: Int64

        public init(format: String?, version: Int64) {
            self.format = format
            self.version = version
        }
    }

    /// The format mark stored in `meta`, such as `cloudsync-device`.
    public let format: String
    /// How messages name a file of this format, such as "device file".
    public let fileKind: String
    /// The steps, in version order 1, 2, 3, …
    public let steps: [Step]

    /// A ladder. `steps` must be numbered 1, 2, 3, … in order.
    public init(format: String, fileKind: String, steps: [Step]) {
        precondition(steps.enumerated().allSatisfy { Int64($0.offset + 1) == $0.element.version },
                     "migration steps must be numbered 1, 2, 3, …")
        self.format = format
        self.fileKind = fileKind
        self.steps = steps
    }

    /// The version this build writes and reads.
    public var latestVersion: Int64 { steps.last?.version ?? 0 }

    /// The statement that reads a file's format from its `meta` table.
    public static let formatQuery = "SELECT value FROM meta WHERE key='format'"

    /// The file's mark, or nil when it has no `meta` table (new, empty, or not ours): two
    /// statements, since reading `user_version` inside a query (`pragma_user_version`) creates
    /// a virtual table whose declaration SQLite parses, which cost a one-shot command more than
    /// both statements together.
    public func readMark(_ db: Connection) throws(SQLiteError) -> Mark? {
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
        return Mark(format: format, version: try version.step() ? version.int64(0) : 0)
    }

    /// Checks a mark read from the file at `path`: ours, and not newer than this build.
    /// - Returns: true when the file needs an upgrade.
    public func check(_ mark: Mark, path: String) throws(MigrationError) -> Bool {
        guard mark.format == format else { throw .foreignFile(path: path, fileKind: fileKind) }
        guard mark.version <= latestVersion else {
            throw .newerFormat(path: path, fileKind: fileKind, version: mark.version, supported: latestVersion)
        }
        return mark.version < latestVersion
    }

    /// Opens the format on `db`: an up-to-date file costs the one mark statement; an older one
    /// is upgraded; an empty one (no tables at all) is created, with `onCreate` run in the same
    /// transaction (for values such as a store epoch).
    /// - Returns: true when this call created the format in an empty file.
    /// - Throws: `MigrationError` for a foreign or newer file, `SQLiteError` from storage.
    @discardableResult
    public func prepare(_ db: Connection, path: String,
                        onCreate: (Connection) throws -> Void = { _ in }) throws -> Bool {
        if let mark = try readMark(db) {
            if try check(mark, path: path) { try upgrade(db, path: path) }
            return false
        }
        return try db.transaction(.immediate) {
            // Another process may have created the format between the read and the lock.
            if let mark = try readMark(db) {
                if try check(mark, path: path) { try upgrade(db, path: path) }
                return false
            }
            let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table'") ?? 0
            guard tables == 0 else { throw MigrationError.foreignFile(path: path, fileKind: fileKind) }
            try apply(db, upTo: latestVersion, from: 0)
            try onCreate(db)
            return true
        }
    }

    /// Upgrades an older file to the latest version, in one transaction (a savepoint inside
    /// one). The version is re-read under the write lock, so concurrent openers upgrade once.
    public func upgrade(_ db: Connection, path: String) throws {
        try db.transaction(.immediate) {
            guard let mark = try readMark(db) else { throw MigrationError.foreignFile(path: path, fileKind: fileKind) }
            guard try check(mark, path: path) else { return }
            try apply(db, upTo: latestVersion, from: mark.version)
        }
    }

    /// Applies the steps after `from` up to `version` and marks the file (for fixtures of older
    /// formats too). Call inside a transaction.
    public func apply(_ db: Connection, upTo version: Int64, from: Int64 = 0) throws(SQLiteError) {
        for step in steps where step.version > from && step.version <= version {
            try db.execute(step.sql)
            if step.version == 1 {
                try db.run("INSERT INTO meta(key, value) VALUES ('format', ?)", format)
            }
            try db.setUserVersion(step.version)
        }
    }
}

/// Why a file cannot be opened in its format.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An SQLite file of another kind (another format mark, or tables without one).
    case foreignFile(path: String, fileKind: String)
    /// Written by a newer cloudsync: this build must not touch it.
    case newerFormat(path: String, fileKind: String, version: Int64, supported: Int64)

    /// One line for the user.
    public var description: String {
        switch self {
        case .foreignFile(let path, let kind):
            "\(path) is an SQLite file but not a cloudsync \(kind.hasSuffix(" file") ? String(kind.dropLast(5)) : kind)"
        case .newerFormat(let path, let kind, let version, let supported):
            "\(kind) \(path) has format version \(version), newer than this cloudsync reads (up to \(supported)); upgrade cloudsync"
        }
    }
}
