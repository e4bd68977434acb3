import CSQLite

/// A failure reported by SQLite, with its primary result code and message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …).
    public var code: Int32
    public var message: String
    /// The SQL that failed, when known (for debugging; never shown to users by default).
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (low byte of the extended code).
    public var primaryCode: Int32 { code & 0xFF }

    /// The database is locked by another connection and the busy timeout ran out.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    /// The file is not a database, or it is damaged.
    public var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
    /// The file cannot be opened or read.
    public var isCannotOpen: Bool {
        primaryCode == SQLITE_CANTOPEN || primaryCode == SQLITE_PERM || primaryCode == SQLITE_READONLY
            || primaryCode == SQLITE_IOERR || primaryCode == SQLITE_AUTH
    }
    /// The statement names a table the database does not have.
    public var isNoSuchTable: Bool { primaryCode == SQLITE_ERROR && message.hasPrefix("no such table") }
    /// A UNIQUE, CHECK or other constraint failed.
    public var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

    public var description: String { "SQLite error \(code): \(message)" }
}
