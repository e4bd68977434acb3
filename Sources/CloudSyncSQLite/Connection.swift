import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// One SQLite connection. Not thread-safe: use it from one thread (each process in cloudsync
/// opens its own). Statements are cached by SQL text.
public final class Connection {
    /// How to open a database file.
    public struct Options: Sendable {
        /// Create the file if missing.
        public var create = true
        public var readOnly = false
        /// Milliseconds to wait for another process's lock before failing with SQLITE_BUSY.
        public var busyTimeoutMilliseconds: Int32 = 10_000
        /// Use write-ahead logging so readers never block the writer.
        public var walMode = true
        /// In WAL mode, keep the `-wal` and `-shm` files when the last connection closes (the
        /// WAL emptied, to zero bytes): without it every short-lived process created both files
        /// on open and unlinked them on close, two inode creations and deletions that cost a
        /// one-shot command like `otp code` more than its reads.
        public var persistentWAL = true
        /// `NORMAL` is durable across application crashes in WAL mode; `FULL` also across
        /// power loss.
        public var synchronous = "NORMAL"
        /// In WAL mode, hold the file's lock for the connection's whole life when no other
        /// connection has it open (`locking_mode=EXCLUSIVE`): the WAL index then lives in this
        /// process's memory, which spares a one-shot command the `-shm` file's set-up (about
        /// twenty system calls and a file extension). With another connection open it falls back
        /// to normal locking at once. For short-lived processes only: while it is open, any other
        /// connection waits for it.
        public var exclusiveWhenAlone = false
        /// Read the file's pages through a memory map of up to this many bytes (`PRAGMA
        /// mmap_size`; 0: SQLite reads each page with a system call into its page cache). For
        /// short-lived, read-mostly processes: a 16 KiB page a lookup touches costs a page fault
        /// on what it reads instead of a read and a copy of the whole page, which made `otp code`
        /// 6-16 % faster. SQLite's caveat applies: an I/O error on a mapped page is a signal,
        /// not an error code (this program never shrinks a database file while it is open).
        public var memoryMapBytes: Int64 = 0
        /// File mode for the database file and its `-wal`, `-shm` and `-journal` files (0600 for
        /// files holding secrets): a new file is created with it before SQLite opens it (SQLite
        /// gives its side files the main file's mode), and an existing file this process owns is
        /// narrowed to it (one `stat` when it already is).
        public var fileMode: mode_t? = nil

        public init() {}
    }

    let handle: OpaquePointer
    public let path: String
    var cache: [String: Statement] = [:]
    /// The statements prepared last, looked at before `cache`: a statement run once per record
    /// is usually the same `String` as last time, which `==` tells at once (same storage),
    /// where the dictionary would hash its whole SQL text (about 2,000 instructions for an
    /// INSERT of fifteen columns).
    var recent: [(sql: String, statement: Statement)] = []
    /// Where the next statement goes in `recent` once it is full.
    var recentNext = 0
    static let recentCapacity = 8
    /// Depth of nested `transaction` calls (savepoints inside a transaction).
    var transactionDepth = 0

    /// Statement and savepoint journals stay in memory up to this size (SQLite's default is
    /// 64 KiB): beyond it each page a savepoint touches is first written to a temporary file,
    /// one pwrite per page, which made a 400-record modify call in its zone's savepoint spend
    /// most of its time in those writes. Bounded, so a savepoint over a huge change still
    /// spills to disk instead of holding every page in memory.
    public static let journalSpillBytes: Int32 = 8 << 20

    /// The size a persistent WAL is trimmed back to after a checkpoint restarts it.
    public static let walSizeLimitBytes = 16 << 20

    /// The page size of a database file this program creates (SQLite's default is 4,096 bytes).
    /// Each WAL frame is two writes and each checkpointed page a read and a write, so a bulk
    /// transaction's system calls scale with its pages: with 16 KiB pages a pull of 100,000
    /// records into a new device made a third of the system calls and ran about 20 % faster,
    /// a fetch about 30 %. Rows of a few hundred bytes (a record and its fields) also stay
    /// well under the size SQLite keeps a row on one page for. A file made before keeps its
    /// page size (a WAL file cannot change it).
    public static let newFilePageSize = 16384

    /// WAL pages of `pageSize` bytes after which a commit checkpoints: as many as the trimmed WAL
    /// holds (`walSizeLimitBytes`; SQLite's default is 1,000 pages, 4 MB with 4 KiB pages). Each
    /// checkpoint syncs the WAL and the database file and copies pages a burst of commits keeps
    /// rewriting (a b-tree's right edge, its index): a pull of 100,000 records ran about 7 %
    /// faster with checkpoints four times rarer.
    public static func walAutocheckpointPages(pageSize: Int) -> Int32 {
        Int32(walSizeLimitBytes / max(pageSize, 512))
    }

    /// Applies process-wide SQLite settings once, before the first connection initializes the
    /// library (sqlite3_config refuses after that; then the default stays, which is only slower):
    /// the statement journal's spill size, no memory statistics (each allocation would
    /// otherwise take a global mutex to count itself), and no page-cache block allocated up
    /// front (`csqlite_config_no_initial_page_cache`: 20 page faults of every open).
    static let configured: Bool = {
        let spill = csqlite_config_stmtjrnl_spill(journalSpillBytes)
        let memstatus = csqlite_config_memstatus(0)
        let pageCache = csqlite_config_no_initial_page_cache()
        return spill == SQLITE_OK && memstatus == SQLITE_OK && pageCache == SQLITE_OK
    }()

    /// Opens (and, with `options.create`, creates) the database at `path`.
    public init(path: String, options: Options = Options()) throws(SQLiteError) {
        _ = Connection.configured
        var flags = options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if options.create && !options.readOnly { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        if let mode = options.fileMode { Connection.applyFileMode(mode, path: path, create: options.create) }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message)
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, options.busyTimeoutMilliseconds)
        do {
            // Reading the schema is what detects a file that is not a database.
            let schemaEntries = options.exclusiveWhenAlone && options.walMode && !options.readOnly
                ? try openExclusiveWhenAlone(busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
                : try schemaEntryCount()
            // A new file: its pages are sized before anything is written (the WAL switch writes
            // the first page). On a file that has pages SQLite ignores the setting.
            if schemaEntries == 0 && options.create && !options.readOnly {
                try execute("PRAGMA page_size=\(Connection.newFilePageSize)")
            }
            if options.walMode && !options.readOnly {
                try execute("PRAGMA journal_mode=WAL")
                sqlite3_wal_autocheckpoint(db, Connection.walAutocheckpointPages(pageSize: try pageSize))
                if options.persistentWAL {
                    var persist: Int32 = 1
                    sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
                    // Any limit ≥ 0 makes the last connection's close truncate the WAL to zero
                    // bytes; while open, a restarted WAL is trimmed back to this size.
                    try execute("PRAGMA journal_size_limit=\(Connection.walSizeLimitBytes)")
                }
            }
            if options.memoryMapBytes > 0 { try execute("PRAGMA mmap_size=\(options.memoryMapBytes)") }
            try execute("PRAGMA synchronous=\(options.synchronous)")
            try execute("PRAGMA foreign_keys=ON")
        } catch {
            sqlite3_close_v2(db)
            throw error
        }
    }

    /// The suffixes of the side files SQLite keeps next to a database file.
    public static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// Creates the file at `path` with `mode` when missing (and `create`), or narrows an
    /// existing file this process owns, and its side files, to `mode`.
    static func applyFileMode(_ mode: mode_t, path: String, create: Bool) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if create && errno == ENOENT {
                let fd = open(path, O_CREAT | O_WRONLY | O_EXCL | O_CLOEXEC, mode)
                if fd >= 0 { close(fd) }
            }
            return
        }
        guard info.st_mode & 0o777 & ~mode != 0, info.st_uid == geteuid() else { return }
        for file in [path] + sideFileSuffixes.map({ path + $0 }) {
            var side = stat()
            if stat(file, &side) == 0, side.st_uid == geteuid(), (side.st_mode & S_IFMT) == S_IFREG {
                chmod(file, side.st_mode & 0o777 & mode)
            }
        }
    }

    /// The first read under `locking_mode=EXCLUSIVE`, or under normal locking when another
    /// connection holds the file (SQLite then answers SQLITE_BUSY at once, without waiting).
    /// Returns the number of schema entries.
    private func openExclusiveWhenAlone(busyTimeoutMilliseconds: Int32) throws(SQLiteError) -> Int64 {
        try execute("PRAGMA locking_mode=EXCLUSIVE")
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        do {
            return try schemaEntryCount()
        } catch where error.isBusy {
            try execute("PRAGMA locking_mode=NORMAL")
            sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
            return try schemaEntryCount()
        }
    }

    /// The number of tables, indexes, views and triggers: the first read of a connection, which
    /// is what detects a file that is not a database; 0 for a new file.
    private func schemaEntryCount() throws(SQLiteError) -> Int64 {
        try scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
    }

    /// The database's page size in bytes (`PRAGMA page_size`).
    public var pageSize: Int {
        get throws(SQLiteError) { Int(try scalarInt("PRAGMA page_size") ?? 4096) }
    }

    /// The connection's locking mode: `normal` or `exclusive`.
    public var lockingMode: String {
        get throws(SQLiteError) {
            let statement = try prepare("PRAGMA locking_mode")
            defer { statement.reset() }
            return try statement.step() ? statement.string(0) : "normal"
        }
    }

    deinit {
        recent.removeAll()
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ rc: Int32, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A cached prepared statement for `sql`.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        for index in recent.indices where recent[index].sql == sql {
            let statement = recent[index].statement
            statement.reset()
            return statement
        }
        let statement: Statement
        if let cached = cache[sql] {
            cached.reset()
            statement = cached
        } else {
            statement = try Statement(connection: self, sql: sql)
            cache[sql] = statement
        }
        if recent.count < Connection.recentCapacity {
            recent.append((sql, statement))
        } else {
            recent[recentNext] = (sql, statement)
            recentNext = (recentNext + 1) % Connection.recentCapacity
        }
        return statement
    }

    /// Runs a statement with parameters, ignoring rows.
    public func run(_ sql: String, _ values: any SQLiteBindable...) throws(SQLiteError) {
        try prepare(sql).run(values)
    }

    /// Runs a query and maps each row.
    public func query<T>(_ sql: String, _ values: [any SQLiteBindable] = [],
                         _ map: (Statement) throws -> T) throws -> [T] {
        let statement = try prepare(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var rows: [T] = []
        while try statement.step() { rows.append(try map(statement)) }
        return rows
    }

    /// The first row of a query, mapped, or nil.
    public func queryOne<T>(_ sql: String, _ values: [any SQLiteBindable] = [],
                            _ map: (Statement) throws -> T) throws -> T? {
        let statement = try prepare(sql)
        try statement.bind(values)
        defer { statement.reset() }
        return try statement.step() ? map(statement) : nil
    }

    /// A single integer from the first column of the first row.
    public func scalarInt(_ sql: String, _ values: [any SQLiteBindable] = []) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// Rowid of the last insert on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The kind of lock a transaction takes at its start.
    public enum TransactionKind: String, Sendable {
        /// Takes the write lock only at the first write.
        case deferred = "DEFERRED"
        /// Takes the write lock at once: writers serialize at BEGIN, so a sequence number read
        /// in the transaction cannot be taken by another writer.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// Nested calls use savepoints.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if transactionDepth > 0 {
            let name = "sp\(transactionDepth)"
            try execute("SAVEPOINT \(name)")
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
                throw error
            }
        }
        try execute("BEGIN \(kind.rawValue)")
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The `user_version` pragma, used for schema migrations.
    public var userVersion: Int64 {
        get throws(SQLiteError) { try scalarInt("PRAGMA user_version") ?? 0 }
    }

    /// Sets `user_version`.
    public func setUserVersion(_ version: Int64) throws(SQLiteError) {
        try execute("PRAGMA user_version=\(version)")
    }
}
