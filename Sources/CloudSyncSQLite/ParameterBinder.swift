import CSQLite

/// Binds a statement's parameters in order. `Statement.bind(_:)` goes through it value by
/// value; the statements a sync runs hundreds of thousands of times call it with typed values
/// (`Statement.run(binding:)`), without an `any SQLiteBindable` box, array or `SQLiteValue` per
/// value. Blobs, and text bound outside `run(binding:)` or short enough to be a small string, are
/// copied by SQLite (`SQLITE_TRANSIENT`); longer text in `run(binding:)` is bound in place
/// (`keepsText`). The first failing bind is kept and thrown once all are bound.
public struct ParameterBinder {
    let handle: OpaquePointer
    /// The next parameter (1-based).
    var index: Int32 = 1
    /// The first bind that failed.
    var failure: Int32 = SQLITE_OK
    /// Set by `Statement.run(binding:)`, which steps the statement while this binder is alive:
    /// text longer than a small string is then bound in place (`SQLITE_STATIC`), its storage
    /// kept alive in `kept`, instead of being copied by SQLite (an allocation and a copy per
    /// value, a tenth of a pull's instructions).
    var keepsText = false
    /// The strings bound in place.
    var kept: [String] = []

    init(handle: OpaquePointer) { self.handle = handle }

    /// A non-null pointer for binding "" (a null pointer would bind NULL).
    nonisolated(unsafe) static let emptyText: UnsafePointer<CChar> = {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()

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
        // More than 15 bytes is never a small (inline) string: its UTF-8 lies in the storage
        // that `kept` holds, where `withUTF8` points (a small string's is a temporary copy).
        let inPlace = keepsText && value.utf8.count > 15
        if inPlace { kept.append(value) }
        let rc = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(handle, index, chars.baseAddress ?? ParameterBinder.emptyText, Int32(chars.count),
                                  inPlace ? csqlite_static() : csqlite_transient())
            }
        }
        done(rc)
    }

    /// Binds text, or NULL.
    public mutating func bind(_ value: String?) {
        guard let value else { return bindNull() }
        bind(value)
    }

    /// Binds NULL.
    public mutating func bindNull() { done(sqlite3_bind_null(handle, index)) }

    /// Binds a blob (an empty one is a zero-length blob, not NULL).
    public mutating func bind(_ value: [UInt8]) {
        let rc = value.withUnsafeBytes { buffer in
            sqlite3_bind_blob64(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                sqlite3_uint64(buffer.count), csqlite_transient())
        }
        done(rc)
    }

    /// Binds a value of any kind.
    public mutating func bind(_ value: SQLiteValue) {
        switch value {
        case .null: bindNull()
        case .integer(let v): bind(v)
        case .real(let v): done(sqlite3_bind_double(handle, index, v))
        case .text(let v): bind(v)
        case .blob(let v): bind(v)
        }
    }
}

extension Statement {
    /// Resets the statement, binds its parameters in order through `body` and runs it to
    /// completion, ignoring rows.
    public func run(binding body: (inout ParameterBinder) -> Void) throws(SQLiteError) {
        sqlite3_reset(handle)
        var binder = ParameterBinder(handle: handle)
        binder.keepsText = true
        swap(&binder.kept, &keptText)
        defer {
            // The strings are let go once the statement has run (the array's storage is kept
            // for the next run). The parameters still point at their text, which SQLite never
            // reads again: every run binds every parameter first (`finish`, here and in
            // `bind(_:)`), and releasing or rebinding a static value does not read it.
            // (sqlite3_clear_bindings would also expire a statement whose plan depends on a
            // parameter, which SQLite then prepares again.)
            binder.kept.removeAll(keepingCapacity: true)
            swap(&binder.kept, &keptText)
        }
        body(&binder)
        // Parameters left unbound would keep an earlier run's values: `finish` makes them NULL.
        try finish(binder)
        while try step() {}
        sqlite3_reset(handle)
    }
}
