@testable import CloudSyncPostgres
import Testing

/// Statements sent without waiting (libpq's pipeline mode): writes sent ahead (`sendPrepared`),
/// a transaction's BEGIN with its first statement, its COMMIT with what was sent ahead, a
/// read-only transaction's COMMIT with the connection's next statement. Counted in round trips
/// (waits for the server), not timed.
@Suite("PostgresConnection: statements sent ahead (pipeline)")
struct PostgresPipelineTests {
    struct Refused: Error {}

    func table(_ db: PostgresConnection) throws -> String {
        let name = TestServer.uniqueName("ahead")
        try db.execute("CREATE TEMP TABLE \(name)(x bigint PRIMARY KEY)")
        return name
    }

    @Test func theNextStatementSeesWhatWasSentAheadInOneRoundTrip() throws {
        let db = try TestServer.connect()
        let t = try table(db)
        // Prepared once first, so that only the statements themselves are counted below.
        try db.sendPrepared("INSERT INTO \(t) SELECT unnest($1::bigint[])", [.int64Array([1, 2, 3])], expectingRows: 3)
        #expect(db.hasUnansweredStatements, "not read yet")
        #expect(try db.queryPrepared("SELECT count(*) FROM \(t)").first?.int64(0) == 3)
        #expect(!db.hasUnansweredStatements)
        try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(4)], expectingRows: 1)
        try db.awaitSent()
        let before = db.roundTrips
        // Two writes ahead and a read: one round trip for the three.
        try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(5)], expectingRows: 1)
        try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(6)], expectingRows: 1)
        #expect(try db.queryPrepared("SELECT count(*) FROM \(t)").first?.int64(0) == 6)
        #expect(db.roundTrips - before == 1)
        // Awaiting with nothing sent does nothing.
        try db.awaitSent()
        #expect(db.roundTrips - before == 1)
        #expect(try db.query("SELECT sum(x)::bigint FROM \(t)").first?.int64(0) == 21)
    }

    @Test func beginGoesWithTheFirstStatementAndCommitWithTheWritesSentAhead() throws {
        let db = try TestServer.connect()
        let t = try table(db)
        try db.transaction { (db: PostgresConnection) throws(PostgresError) in
            try db.queryPrepared("SELECT count(*) FROM \(t)")
            try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(1)], expectingRows: 1)
        }
        let before = db.roundTrips
        try db.transaction { (db: PostgresConnection) throws(PostgresError) in
            #expect(try db.queryPrepared("SELECT count(*) FROM \(t)").first?.int64(0) == 1)
            try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(2)], expectingRows: 1)
            try db.sendWithCommit("INSERT INTO \(t) VALUES (3)")
        }
        #expect(db.roundTrips - before == 2, "BEGIN with the count, the insert and the queued one with COMMIT")
        #expect(try db.query("SELECT count(*) FROM \(t)").first?.int64(0) == 3)
    }

    @Test func aReadOnlyTransactionsCommitGoesWithTheNextStatement() throws {
        let db = try TestServer.connect()
        let t = try table(db)
        try db.execute("INSERT INTO \(t) VALUES (1), (2)")
        _ = try db.transaction(.repeatableRead, readOnly: true) { (db: PostgresConnection) throws(PostgresError) in
            try db.queryPrepared("SELECT count(*) FROM \(t)")
        }
        let before = db.roundTrips
        let count = try db.transaction(.repeatableRead, readOnly: true) { (db: PostgresConnection) throws(PostgresError) in
            try db.queryPrepared("SELECT count(*) FROM \(t)").first?.int64(0)
        }
        #expect(count == 2)
        #expect(db.hasUnansweredStatements, "the COMMIT is sent, its answer unread")
        #expect(db.roundTrips - before == 1)
        // The server committed already: another session sees no open transaction of ours.
        let other = try TestServer.connect()
        let open = try other.queryPrepared("""
            SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state LIKE 'idle in transaction%'
            """, [.int64(Int64(db.backendPID))]).first?.int64(0)
        #expect(open == 0)
        // The next statement reads that answer first, in its own round trip.
        try db.execute("INSERT INTO \(t) VALUES (3)")
        #expect(!db.hasUnansweredStatements)
        #expect(try db.query("SELECT count(*) FROM \(t)").first?.int64(0) == 3)
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
        #expect(!db.hasUnansweredStatements)
    }

    /// A statement first prepared in a pipeline whose earlier statement fails is skipped by the
    /// server: it is prepared again at its next use, not run by a name the server never made.
    @Test func aStatementPreparedAfterAFailureIsPreparedAgainLater() throws {
        let db = try TestServer.connect()
        let t = try table(db)
        try db.execute("INSERT INTO \(t) VALUES (1)")
        try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(1)], expectingRows: 1)
        #expect(throws: PostgresError.self) {
            try db.queryPrepared("SELECT x FROM \(t) WHERE x > $1 ORDER BY x", [.int64(0)])
        }
        #expect(try db.queryPrepared("SELECT x FROM \(t) WHERE x > $1 ORDER BY x", [.int64(0)]).rows.count == 1)
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

    /// More writes ahead than the pipeline keeps: the earlier answers are read on the way, and
    /// every row lands.
    @Test func aLongRunOfWritesAheadIsReadOnTheWay() throws {
        let db = try TestServer.connect()
        let t = try table(db)
        try db.transaction { (db: PostgresConnection) throws(PostgresError) in
            for x in 0..<(3 * PostgresConnection.maxPending) {
                try db.sendPrepared("INSERT INTO \(t) VALUES ($1)", [.int64(Int64(x))], expectingRows: 1)
            }
        }
        #expect(try db.query("SELECT count(*) FROM \(t)").first?.int64(0) == Int64(3 * PostgresConnection.maxPending))
    }
}
