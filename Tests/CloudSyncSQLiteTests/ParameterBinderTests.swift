import CloudSyncSQLite
import TestSupport
import Testing

@Suite("ParameterBinder: text bound in place, unbound parameters")
struct ParameterBinderTests {
    let dir = TemporaryDirectory("sqlite-binder")

    /// A string made at run time (not a literal), long enough to be bound in place.
    static func text(_ index: Int, length: Int) -> String {
        String(repeating: String(UnicodeScalar(UInt8(97 + index % 26))), count: length) + "-\(index)-é"
    }

    /// Strings that die right after their run leave the stored rows intact, run after run,
    /// whatever their length (small inline strings, long ones, the empty string).
    @Test func textBoundInPlaceIsStoredIntactAfterItsStringIsGone() throws {
        let db = try Connection(path: dir.file("in-place.sqlite"))
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b TEXT, c TEXT)")
        let insert = try db.prepare("INSERT INTO t(id, a, b, c) VALUES (?, ?, ?, ?)")
        var expected: [Int: [String]] = [:]
        for index in 0..<200 {
            let values = [Self.text(index, length: index % 40), Self.text(index + 1, length: 300 + index), ""]
            expected[index] = values
            try insert.run { binder in
                binder.bind(Int64(index))
                binder.bind(Self.text(index, length: index % 40))
                binder.bind(Self.text(index + 1, length: 300 + index))
                binder.bind("")
            }
        }
        // The statement still points at text of the last run: rebinding it (here through the
        // array path) and running it again is safe and stores the new values.
        try insert.bind([Int64(1000), Self.text(7, length: 64), SQLiteValue.null, "x"])
        _ = try insert.step()
        expected[1000] = [Self.text(7, length: 64), "", "x"]
        let rows = try db.query("SELECT id, a, coalesce(b, ''), c FROM t ORDER BY id") {
            (Int($0.int64(0)), [$0.string(1), $0.string(2), $0.string(3)])
        }
        #expect(rows.count == expected.count)
        for (id, values) in rows { #expect(expected[id] == values, "row \(id)") }
    }

    /// Parameters a run leaves unbound are NULL, not the values of the run before.
    @Test func parametersLeftUnboundAreNull() throws {
        let db = try Connection(path: dir.file("unbound.sqlite"))
        try db.execute("CREATE TABLE t(id INTEGER, a TEXT, b TEXT)")
        let insert = try db.prepare("INSERT INTO t(id, a, b) VALUES (?, ?, ?)")
        try insert.run { binder in
            binder.bind(Int64(1))
            binder.bind(Self.text(1, length: 100))
            binder.bind(Self.text(2, length: 100))
        }
        try insert.run { binder in binder.bind(Int64(2)) }
        #expect(try db.scalarInt("SELECT count(*) FROM t WHERE id=2 AND a IS NULL AND b IS NULL") == 1)
        #expect(try db.scalarInt("SELECT count(*) FROM t WHERE id=1 AND length(a)=104 AND length(b)=104") == 1)
    }
}
