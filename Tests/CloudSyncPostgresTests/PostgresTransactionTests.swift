@testable import CloudSyncPostgres
import Testing

@Suite("PostgresConnection: transactions")
struct PostgresTransactionTests {
    struct Refused: Error {}

    @Test func aThrowingBodyRollsBackAndAReturningOneCommits() throws {
        let db = try TestServer.connect()
        try db.execute("CREATE TEMP TABLE t(x bigint)")
        #expect(throws: Refused.self) {
            try db.transaction { (db: PostgresConnection) throws(any Error) in
                try db.query("INSERT INTO t VALUES ($1)", [.int64(1)])
                throw Refused()
            }
        }
        #expect(try db.query("SELECT count(*) FROM t").first?.int64(0) == 0)
        let value = try db.transaction { (db: PostgresConnection) throws(PostgresError) -> Int64 in
            try db.query("INSERT INTO t VALUES ($1)", [.int64(2)])
            return try db.query("SELECT sum(x)::bigint FROM t").first?.int64(0) ?? -1
        }
        #expect(value == 2)
        #expect(try db.query("SELECT x FROM t").rows == [PostgresRow([.int64(2)])])
    }

    /// A statement queued for the COMMIT inside a savepoint that is rolled back is dropped with
    /// it (`dropCommitPrelude(after:)`); one queued before the savepoint still runs.
    @Test func statementsQueuedForTheCommitInARolledBackSavepointAreDropped() throws {
        let db = try TestServer.connect()
        try db.execute("CREATE TEMP TABLE ledger(x bigint)")
        try db.transaction { (db: PostgresConnection) throws(PostgresError) in
            try db.sendWithCommit("INSERT INTO ledger VALUES (1)")
            try db.execute("SAVEPOINT s")
            let mark = db.commitPreludeMark
            try db.sendWithCommit("INSERT INTO ledger VALUES (2)")
            #expect(db.commitPreludeMark == mark + 1)
            try db.execute("ROLLBACK TO SAVEPOINT s")
            db.dropCommitPrelude(after: mark)
            try db.sendWithCommit("INSERT INTO ledger VALUES (3)")
        }
        #expect(try db.query("SELECT x FROM ledger ORDER BY x").rows == [PostgresRow([.int64(1)]), PostgresRow([.int64(3)])])
    }

    @Test func transactionsDoNotNest() throws {
        let db = try TestServer.connect()
        #expect(throws: PostgresError.invalidArgument("a transaction is already open on this connection")) {
            try db.transaction { (db: PostgresConnection) throws(any Error) in
                try db.transaction { (_: PostgresConnection) throws(PostgresError) in }
            }
        }
        // Rolled back and usable.
        #expect(try db.query("SELECT 1").first?.int64(0) == 1)
    }

    @Test func aSerializationFailureIsRetriedThroughTheHook() throws {
        let db = try TestServer.connect()
        let other = try TestServer.connect()
        let table = TestServer.uniqueName("serial")
        try db.execute("CREATE TABLE \(table)(id int PRIMARY KEY, n bigint); INSERT INTO \(table) VALUES (1, 0)")
        defer { _ = try? db.execute("DROP TABLE \(table)") }
        var attempts = 0
        var retried: [PostgresError] = []
        try db.transaction(.repeatableRead, retry: { error, attempt in
            retried.append(error)
            return attempt < 3
        }) { (db: PostgresConnection) throws(PostgresError) in
            attempts += 1
            _ = try db.query("SELECT n FROM \(table) WHERE id = 1")   // takes the snapshot
            if attempts == 1 {
                // Another connection changes the row after our snapshot: our update must fail.
                try other.query("UPDATE \(table) SET n = n + 10 WHERE id = 1")
            }
            try db.query("UPDATE \(table) SET n = n + 1 WHERE id = 1")
        }
        #expect(attempts == 2)
        #expect(retried.count == 1 && retried[0].sqlState == "40001")
        #expect(try db.query("SELECT n FROM \(table)").first?.int64(0) == 11)
    }

    @Test func whenTheHookSaysNoTheSerializationFailureIsThrown() throws {
        let db = try TestServer.connect()
        let other = try TestServer.connect()
        let table = TestServer.uniqueName("serial")
        try db.execute("CREATE TABLE \(table)(id int PRIMARY KEY, n bigint); INSERT INTO \(table) VALUES (1, 0)")
        defer { _ = try? db.execute("DROP TABLE \(table)") }
        do {
            try db.transaction(.serializable, retry: { _, _ in false }) { (db: PostgresConnection) throws(PostgresError) in
                _ = try db.query("SELECT n FROM \(table) WHERE id = 1")
                try other.query("UPDATE \(table) SET n = n + 10 WHERE id = 1")
                try db.query("UPDATE \(table) SET n = n + 1 WHERE id = 1")
            }
            Issue.record("no serialization failure")
        } catch let error as PostgresError {
            #expect(error.isSerializationFailure, "\(error)")
        }
        #expect(try db.query("SELECT n FROM \(table)").first?.int64(0) == 10)
    }
}
