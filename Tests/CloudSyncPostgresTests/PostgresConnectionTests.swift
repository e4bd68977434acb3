@testable import CloudSyncPostgres
import Glibc
import Testing

@Suite("PostgresConnection: statements against a real server")
struct PostgresConnectionTests {
    @Test func connectsAndAnswers() throws {
        let db = try TestServer.connect()
        #expect(try db.query("SELECT 1 + 1 AS two").first?.int64(0) == 2)
        #expect(db.serverVersion >= 100_000)
        #expect(db.backendPID > 0)
        #expect(LibPQ.isLoaded)
    }

    @Test func parametersRoundTripWithTheirTypes() throws {
        let db = try TestServer.connect()
        let everyByte = (0...255).map(UInt8.init)
        let unicode = "héllo 🌍 ✓ \u{202E}rtl ' \" \\ $1 ;--"
        let rows = try db.query("SELECT $1::text, $2::bigint, $3::bigint, $4::bytea, $5::text, $6::boolean, $7::float8, $8::bytea",
                                [.text(unicode), .int64(.max), .int64(.min), .bytes(everyByte), .null, .bool(true),
                                 .double(-2.5), .bytes([])])
        #expect(rows.columns.count == 8)
        #expect(rows.rows == [PostgresRow([.text(unicode), .int64(.max), .int64(.min), .bytes(everyByte), .null,
                                           .bool(true), .double(-2.5), .bytes([])])])
    }

    @Test func aTableKeepsBytesNullAndUnicode() throws {
        let db = try TestServer.connect()
        try db.execute("CREATE TEMP TABLE things(id bigint PRIMARY KEY, name text, body bytea)")
        let big = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let inserted = try db.query("INSERT INTO things VALUES ($1, $2, $3), ($4, $5, $6)",
                                    [.int64(1), .text("zoë 🦊"), .bytes(big), .int64(2), .null, .null])
        #expect(inserted.affectedRows == 2)
        let rows = try db.query("SELECT id, name, body FROM things ORDER BY id")
        #expect(rows.columns == ["id", "name", "body"])
        #expect(try rows.rows[0].text(1) == "zoë 🦊")
        #expect(try rows.rows[0].bytes(2) == big)
        #expect(rows.rows[1][1] == .null && rows.rows[1][2] == .null)
        #expect(throws: PostgresError.self) { try rows.rows[1].text(1) }
    }

    @Test func textWithANulByteIsRefusedBeforeSending() throws {
        let db = try TestServer.connect()
        #expect(throws: PostgresError.invalidArgument("parameter $2 contains a NUL byte (PostgreSQL text cannot hold one)")) {
            try db.query("SELECT $1::text, $2::text", [.text("ok"), .text("a\u{0}b")])
        }
        // The connection is still usable.
        #expect(try db.query("SELECT 'still here'").first?.text(0) == "still here")
    }

    @Test func preparedStatementsAreReusedByName() throws {
        let db = try TestServer.connect()
        let sql = "SELECT $1::bigint * 2"
        for value in Int64(1)...5 {
            #expect(try db.queryPrepared(sql, [.int64(value)]).first?.int64(0) == value * 2)
        }
        #expect(db.preparedStatementCount == 1)
        try db.queryPrepared("SELECT $1::text || '!'", [.text("a")])
        #expect(db.preparedStatementCount == 2)
        // The server holds exactly those two, prepared once each.
        let onServer = try db.query("SELECT name, statement FROM pg_prepared_statements ORDER BY name")
        #expect(onServer.rows.count == 2)
        #expect(try onServer.rows[0].text(0) == "cloudsync_1" && onServer.rows[0].text(1) == sql)
    }

    @Test func aStatementErrorCarriesItsSQLState() throws {
        let db = try TestServer.connect()
        do {
            try db.query("SELECT * FROM no_such_table_here")
            Issue.record("no error")
        } catch {
            #expect(error.sqlState == "42P01")
            #expect(error.description == "PostgreSQL error 42P01: relation \"no_such_table_here\" does not exist")
        }
        #expect(throws: PostgresError.server(sqlState: "42601", message: "syntax error at or near \"SELEKT\"")) {
            try db.execute("SELEKT 1")
        }
    }

    @Test func statementTimeoutCancelsALongStatement() throws {
        let db = try TestServer.connect()
        try db.setStatementTimeout(milliseconds: 50)
        do {
            try db.query("SELECT pg_sleep(30)")
            Issue.record("not cancelled")
        } catch {
            #expect(error.isStatementTimeout, "\(error)")
        }
        try db.setStatementTimeout(milliseconds: 0)
        #expect(try db.query("SHOW statement_timeout").first?.text(0) == "0")
        #expect(throws: PostgresError.self) { try db.setStatementTimeout(milliseconds: -1) }
    }

    @Test func connectionLostIsTyped() throws {
        let db = try TestServer.connect()
        let other = try TestServer.connect()
        try other.query("SELECT pg_terminate_backend($1::int)", [.int64(Int64(db.backendPID))])
        do {
            try db.query("SELECT 1")
            Issue.record("still connected")
        } catch {
            guard case .connectionLost = error else {
                Issue.record("\(error) is not connectionLost")
                return
            }
        }
    }
}
