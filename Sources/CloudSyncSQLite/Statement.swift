import CSQLite

/// A prepared statement. Bind with `bind(_:)`, step with `step()`, read the current row with
/// the column accessors. Reset before re-use (done by `bind`).
public final class Statement {
    let handle: OpaquePointer
    unowned let connection: Connection
    public let sql: String

    init(connection: Connection, sql: String) throws(SQLiteError) {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw connection.error(rc, sql: sql)
        }
        self.handle = stmt
        self.connection = connection
        self.sql = sql
    }

    /// The storage `run(binding:)` keeps the strings it binds in place in, reused run to run.
    var keptText: [String] = []

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds the parameters positionally (1-based in SQL); fewer
    /// values than parameters leave the rest NULL.
    @discardableResult
    public func bind(_ values: [any SQLiteBindable]) throws(SQLiteError) -> Statement {
        sqlite3_reset(handle)
        var binder = ParameterBinder(handle: handle)
        for value in values { binder.bind(value.sqliteValue) }
        try finish(binder)
        return self
    }

    /// Throws the first failed bind of `binder`, after binding NULL to the parameters it left.
    func finish(_ binder: ParameterBinder) throws(SQLiteError) {
        var binder = binder
        let count = sqlite3_bind_parameter_count(handle)
        while binder.index <= count { binder.bindNull() }
        guard binder.failure == SQLITE_OK else { throw connection.error(binder.failure, sql: sql) }
    }

    /// Advances to the next row. Returns false when done.
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring rows.
    public func run(_ values: [any SQLiteBindable] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Resets the statement so that it releases its read snapshot.
    public func reset() { sqlite3_reset(handle) }

    // MARK: Columns of the current row (0-based)

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }

    public func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    public func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
    public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The raw bytes of a blob or text column of the current row, where SQLite holds them: valid
    /// until the statement steps again or is reset.
    public func rawBytes(_ column: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(handle, column)
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// Calls `body` with the raw bytes of a blob or text column without copying.
    public func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(rawBytes(column))
    }
}
