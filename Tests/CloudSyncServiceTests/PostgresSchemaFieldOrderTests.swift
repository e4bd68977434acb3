import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres
@testable import CloudSyncPostgresCloud
import Glibc
import Synchronization
import TestSupport
import Testing

/// Two things one-record saves under load depend on in PostgreSQL: the fields a save adds to
/// the schema are inserted in name order (two first saves of the same new fields in different
/// orders would each wait for the other's uncommitted row until the deadlock check broke the tie
/// a second later: the stalled rounds of the load bench), and the look-up of one record by name
/// runs on a generic plan instead of being planned again at every call.
@Suite("PostgreSQL schema field order and plans")
struct PostgresSchemaFieldOrderTests {
    /// A connection of its own on the fixture's schema.
    func connection(_ f: CloudFixture) throws -> PostgresConnection {
        let url = try PostgresURL(f.location)
        let connection = try PostgresConnection(url)
        try connection.execute("SET search_path TO \"\(try #require(url.schema))\"")
        return connection
    }

    @Test func aSaveAddsItsNewFieldsInNameOrder() throws {
        let (cloud, f) = try CloudBackend.pooledPostgres(connections: 2, maxWait: 30)
        let bob = try f.request("bob")
        let fields = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        let holder = try connection(f)
        // Another writer has added field "m", not committed yet: bob's save waits at "m".
        try holder.execute("BEGIN")
        try holder.query("INSERT INTO schema_fields(container, record_type, field, type) VALUES ($1, 'Note', 'm', 'STRING')",
                         [.text(bob.storageContainer)])
        let holderPID = try #require(try holder.execute("SELECT pg_backend_pid()::text").first?[0].text)
        let saved = Latch()
        let failure = Mutex<String?>(nil)
        let saver = startThread {
            do {
                var values: [String: FieldValue] = [:]
                for field in fields { values[field] = .string(field) }
                try f.save([f.record("r1", zone: "_defaultZone", bob, fields: values)], bob)
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            saved.open()
        }
        // Wait until bob's save is blocked by the holder (it may not have reached "m" yet).
        let monitor = try connection(f)
        var blocked = false
        for _ in 0..<1_000 where !blocked {
            blocked = try monitor.query("SELECT count(*)::text FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))",
                                        [.text(holderPID)]).first?[0].text != "0"
            if !blocked { usleep(10_000) }
        }
        #expect(blocked, "bob's save never waited for the field the holder added")
        // Every field before "m" is bob's (uncommitted: a third writer's insert of it waits, and
        // times out), none after it is yet. (The prober waits for bob, bob for the holder: no
        // cycle, so no deadlock check ends either.)
        let prober = try connection(f)
        try prober.execute("SET lock_timeout = '200ms'")
        try prober.execute("BEGIN")
        var held: [String] = []
        for field in fields where field != "m" {
            try prober.execute("SAVEPOINT probe")
            do {
                try prober.query("INSERT INTO schema_fields(container, record_type, field, type) VALUES ($1, 'Note', $2, 'STRING')",
                                 [.text(bob.storageContainer), .text(field)])
            } catch {
                held.append(field)
            }
            try prober.execute("ROLLBACK TO SAVEPOINT probe")
        }
        try prober.execute("ROLLBACK")
        try holder.execute("ROLLBACK")
        saved.wait()
        pthread_join(saver, nil)
        #expect(failure.withLock { $0 } == nil, "\(failure.withLock { $0 } ?? "")")
        #expect(held == Array(fields.prefix { $0 != "m" }), "fields bob held while waiting at 'm': \(held)")
        // The save landed with every field.
        let fetched = try cloud.fetchRecords([RecordID(recordName: "r1", zoneID: bob.zoneID("_defaultZone"))], in: bob)
        #expect(try fetched.values.first?.get().fields.count == fields.count)
    }

    @Test func aOneRecordLookUpRunsOnAGenericPlan() throws {
        let f = try CloudBackend.postgres.make()
        let r = try f.request("alice")
        try f.save((0..<50).map { f.record("n\($0)", zone: "_defaultZone", r, fields: ["i": .int64(Int64($0))]) }, r)
        let connection = try connection(f)
        try connection.execute("ANALYZE records")
        let owner = r.userRecordName
        for n in 0..<8 {
            let rows = try connection.queryPrepared(PostgresCloudTransaction.recordByZoneNameSQL, [
                .text(r.storageContainer), .text("private"), .text(owner), .text("_defaultZone"), .text("n\(n)")])
            #expect(rows.rows.count == 1)
        }
        let plans = try #require(try connection.query("""
            SELECT generic_plans::text, custom_plans::text FROM pg_prepared_statements WHERE statement = $1
            """, [.text(PostgresCloudTransaction.recordByZoneNameSQL)]).first)
        // Five custom plans are PostgreSQL's rule before it compares; the rest reuse the generic one.
        #expect(plans[0].text.flatMap { Int($0) } ?? 0 >= 2, "generic \(plans[0].text ?? "-"), custom \(plans[1].text ?? "-")")
    }
}
