import CSQLite

/// Binds a statement's parameters in order straight from typed values, for the statements a
/// sync runs hundreds of thousands of times: no `any SQLiteBindable` box, array or
/// `SQLiteValue` per value, as `Statement.bind(_:)` makes. Text and blobs are copied by SQLite
/// (`SQLITE_TRANSIENT`), as there. The first failing bind is thrown by `Statement.run(binding:)`.
public struct ParameterBinder {
    let handle: OpaquePointer
    /// The next parameter (1-based).
    var index: Int32 = 1
    /// The first bind that failed.
    var failure: Int32 = SQLITE_OK

    init(handle: OpaquePointer) { self.handle = handle }

    private mutating func done(_ rc: Int32) {
        if rc != SQLITE_OK && failure == SQLITE_OK { failure = rc }
        index += 1
    }

    /// Binds an integer.
    public mutating func bind(_ value: Int64) { done(sqlite3_bind_int64(handle, index, value)) }
    /// Binds an integer.
    public mutating func bind(_ value: Int) { bind(Int64(value)) }
    /// Binds 1 or 0.
    public mutating func bind(_ value: Bool) { bind(Int64(value ? 1 : 0)) }

    /// Binds text from the string's own UTF-8 and its length.
    public mutating func bind(_ value: String) {
        var text = value
        let rc = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(handle, index, chars.baseAddress ?? Statement.emptyText, Int32(chars.count), csqlite_transient())
            }
        }
        done(rc)
    }

    /// Binds text, or NULL.
    public mutating func bind(_ value: String?) {
        guard let value else { return done(sqlite3_bind_null(handle, index)) }
        bind(value)
    }
}

extension Statement {
    /// Resets the statement, binds its parameters in order through `body` and runs it to
    /// completion, ignoring rows.
    public func run(binding body: (inout ParameterBinder) -> Void) throws(SQLiteError) {
        sqlite3_reset(handle)
        var binder = ParameterBinder(handle: handle)
        body(&binder)
        if binder.failure == SQLITE_OK, binder.index - 1 < sqlite3_bind_parameter_count(handle) {
            // Fewer values than parameters: the rest would keep an earlier run's values.
            sqlite3_clear_bindings(handle)
            binder = ParameterBinder(handle: handle)
            body(&binder)
        }
        guard binder.failure == SQLITE_OK else { throw connection.error(binder.failure, sql: sql) }
        while try step() {}
        sqlite3_reset(handle)
    }
}
