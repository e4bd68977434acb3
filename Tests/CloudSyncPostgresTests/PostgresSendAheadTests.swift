@testable import CloudSyncPostgres
import Testing

/// `sendPrepared`: a statement whose answer the next statement reads, so the server runs it while
/// the client prepares what follows.
@Suite("PostgresConnection: statements sent ahead")
struct PostgresSendAheadTests {
    struct Refused: Error {}

    func table(_ db: PostgresConnection) throws -> String {
        let name = TestServer.uniqueName("ahead")
        try db.execute("CREATE TEMP TABLE \(name)(x bigint PRIMARY KEY)")
        return name
    }

    @Test func theNextStatementSeesWhatWasSentAhead() throws {
        let db = try TestServer.connect()
        let t = try table(db)
        let before = db.roundTrips
        try db.sendPrepared("INSERT INTO \(t) SELECT unnest($1::bigint[])", [.int64Array([1, 2, 3])], expectingRows: 3)
        #expect(db.sentAheadRows == 3, "not read yet")
        #expect(try db.queryPrepared("SELECT count(*) FROM \(t)").first?.int64(0) == 3)
        #expect(db.sentAheadRows == nil)
        // A second one waits for the first; awaiting with nothing sent does nothing.
        try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(4)], expectingRows: 1)
        try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(5)], expectingRows: 1)
        try db.awaitSent()
        try db.awaitSent()
        #expect(try db.query("SELECT sum(x)::bigint FROM \(t)").first?.int64(0) == 15)
        #expect(db.roundTrips - before >= 6, "each statement sent counts as a round trip")
    }

    @Test func aFailureIsThrownByTheNextStatementAndTheTransactionRollsBack() throws {
        let db = try TestServer.connect()
        let t = try table(db)
        try db.execute("INSERT INTO \(t) VALUES (2)")
        #expect(throws: PostgresError.self) {
            try db.transaction { (db: PostgresConnection) throws(PostgresError) in
                try db.queryPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(10)])
                // A duplicate key: the server refuses while the client goes on.
                try db.sendPrepared("INSERT INTO \(t) SELECT unnest($1::bigint[])", [.int64Array([1, 2])], expectingRows: 2)
                _ = try db.queryPrepared("SELECT 1")
            }
        }
        #expect(try db.query("SELECT array_agg(x ORDER BY x)::text FROM \(t)").first?.text(0) == "{2}", "all of it rolled back")
        // The failure of the last statement sent, found by COMMIT, rolls back too.
        #expect(throws: PostgresError.self) {
            try db.transaction { (db: PostgresConnection) throws(PostgresError) in
                try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(2)], expectingRows: 1)
            }
        }
        // Thrown from the body before COMMIT: the answer is read before ROLLBACK.
        #expect(throws: Refused.self) {
            try db.transaction { (db: PostgresConnection) throws(any Error) in
                try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(7)], expectingRows: 1)
                throw Refused()
            }
        }
        #expect(try db.query("SELECT count(*) FROM \(t)").first?.int64(0) == 1)
        #expect(db.sentAheadRows == nil)
    }

    @Test func anotherNumberOfChangedRowsThanExpectedIsAnError() throws {
        let db = try TestServer.connect()
        let t = try table(db)
        try db.sendPrepared("INSERT INTO \(t) SELECT unnest($1::bigint[]) ON CONFLICT DO NOTHING", [.int64Array([1, 1, 2])],
                            expectingRows: 3)
        #expect(throws: PostgresError.unexpectedValue("a statement sent ahead changed 2 rows instead of 3")) {
            try db.awaitSent()
        }
        #expect(try db.query("SELECT count(*) FROM \(t)").first?.int64(0) == 2, "the connection is usable after")
    }
}
