@testable import CloudSyncPostgres
import Testing

/// Arrays sent as binary parameters (`PostgresValue.textArray`, `int64Array`, `boolArray`) reach
/// the server element for element, with nothing escaped.
@Suite("PostgresConnection: binary array parameters")
struct PostgresArrayParameterTests {
    @Test func textArraysKeepEveryCharacter() throws {
        let db = try TestServer.connect()
        let values = ["", "plain", "quo\"te", "back\\slash", "{braces,comma}", "NULL", "héllo 🌍 \u{202E}", " spaced ",
                      String(repeating: "x", count: 100_000)]
        for prepared in [false, true] {
            let sql = "SELECT u, n FROM unnest($1::text[]) WITH ORDINALITY AS t(u, n) ORDER BY n"
            let parameters = [try PostgresValue.textArray(values)]
            let rows = prepared ? try db.queryPrepared(sql, parameters) : try db.query(sql, parameters)
            #expect(try rows.rows.map { try $0.text(0) } == values)
        }
        #expect(try db.query("SELECT cardinality($1::text[])", [try .textArray([String]())]).first?.int64(0) == 0)
    }

    @Test func numberAndBooleanArrays() throws {
        let db = try TestServer.connect()
        let numbers: [Int64] = [0, -1, 1, .max, .min, 1_700_000_000_000]
        let flags = [true, false, false, true]
        let rows = try db.queryPrepared("SELECT array_to_string($1::bigint[], ','), array_to_string($2::boolean[], ','), cardinality($3::bigint[])",
                                        [.int64Array(numbers), .boolArray(flags), .int64Array([])])
        #expect(try rows.first?.text(0) == numbers.map(String.init).joined(separator: ","))
        #expect(try rows.first?.text(1) == "t,f,f,t")
        #expect(try rows.first?.int64(2) == 0)
    }

    @Test func aNulByteIsRefusedBeforeSending() {
        #expect(throws: PostgresError.self) { try PostgresValue.textArray(["ok", "a\u{0}b"]) }
    }
}
