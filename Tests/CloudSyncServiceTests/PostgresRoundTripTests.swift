import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres
import CloudSyncPostgresCloud
import TestSupport
import Testing

/// PostgreSQL: a modify call's records go to the server as one batch, not one statement each,
/// and the statements whose answers nothing waits for go together (counted in round trips, not
/// timed).
@Suite("PostgreSQL round trips")
struct PostgresRoundTripTests {
    @Test func aCallOf400CreationsCostsAFewStatements() throws {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: r)
        // Warm: statements prepared (sent ahead and with the counters), schema fields known.
        try f.save((0..<130).map { f.record("warm\($0)", zone: "Z", r, fields: ["i": .int64(Int64($0))]) }, r)

        let creations = (0..<400).map { f.record("c\($0)", zone: "Z", r, fields: ["i": .int64(Int64($0))]) }
        let start = cloud.roundTrips
        #expect(try f.save(creations, r).count == 400)
        let creating = cloud.roundTrips - start
        // Round trips (waits for the server): BEGIN with the database row locked, the zone row
        // locked (which also tells that the zone has no share and no subscription to notify)
        // and the rows read ahead, all in one; then three batches of 128 rows sent ahead (the
        // server writes them while the next ones are prepared), the last rows with both
        // counters taken, and COMMIT, whose answers are read together. No savepoint in a
        // non-atomic zone.
        #expect(creating == 2, "400 creations took \(creating) round trips")
        #expect(try f.allChanges("Z", since: nil, r).changed.count == 530)
    }

    /// What a client saving one record at a time costs (issue 28's figure 1): BEGIN with the
    /// database, zone and record read, then the row with both counters and COMMIT. With a quota
    /// too: the ledger's statement checks it and goes with COMMIT. A read of one statement
    /// (the account's usage) is one round trip; its COMMIT goes with the connection's next
    /// statement.
    @Test func aLoneSaveIsTwoRoundTripsAndAReadOne() throws {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: r)
        try f.save([f.record("warm", zone: "Z", r, fields: ["i": .int64(0)])], r)
        var start = cloud.roundTrips
        try f.save([f.record("one", zone: "Z", r, fields: ["i": .int64(1)])], r)
        #expect(cloud.roundTrips - start == 2)
        start = cloud.roundTrips
        #expect(try cloud.usage(in: r) > 0)
        #expect(cloud.roundTrips - start == 1)
        (f.cloud as? StorageBackedCloud)?.setQuota(bytes: 1 << 30)
        try f.save([f.record("two", zone: "Z", r, fields: ["i": .int64(2)])], r)
        start = cloud.roundTrips
        try f.save([f.record("three", zone: "Z", r, fields: ["i": .int64(3)])], r)
        #expect(cloud.roundTrips - start == 2)
        // Over it: refused with the total, and nothing of the call stays.
        (f.cloud as? StorageBackedCloud)?.setQuota(bytes: try cloud.usage(in: r) + 10)
        #expect(throws: CloudError.self) {
            try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("four", zone: "Z", r, fields: ["t": .string(String(repeating: "x", count: 100))])]), in: r)
        }
        do {
            _ = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("four", zone: "Z", r, fields: ["t": .string(String(repeating: "x", count: 100))])]), in: r)
        } catch {
            #expect(error.code == .quotaExceeded && error.reason.contains("over its quota of"), "\(error)")
        }
        #expect(try f.allChanges("Z", since: nil, r).changed.count == 4)
    }

    /// The same for updates (each row replaced). Fewer than 1,000 rows are written in all, so
    /// the statistics check that follows a bulk write's commit does not come into the count.
    @Test func aCallOf400UpdatesCostsAFewStatements() throws {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: r)
        let warm = try f.save((0..<130).map { f.record("u\($0)", zone: "Z", r, fields: ["i": .int64(Int64($0))]) }, r)
        try f.save(warm, r)
        let rest = try f.save((130..<400).map { f.record("u\($0)", zone: "Z", r, fields: ["i": .int64(Int64($0))]) }, r)
        let updates = (try f.cloud.fetchRecords((warm + rest).map(\.recordID), in: r)).values.compactMap { result in
            var record = try? result.get()
            record?.fields["i"] = .int64(-1)
            return record
        }
        #expect(updates.count == 400)
        let start = cloud.roundTrips
        #expect(try f.save(updates, r).count == 400)
        let updating = cloud.roundTrips - start
        #expect(updating == 2, "400 updates took \(updating) round trips")
        let changes = try f.allChanges("Z", since: nil, r)
        #expect(changes.changed.filter { $0.fields["i"] == .int64(-1) }.count == 400)
        #expect(changes.changed.count == 400)
    }

    /// An atomic zone's call keeps its savepoint (one statement more, sent with the rows read
    /// ahead, so no round trip more; it ends with the transaction, no RELEASE), so one failing
    /// record still undoes the others (`BatchedModifyConformanceTests`).
    @Test func anAtomicZoneAddsOnlyItsSavepoint() throws {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "A", atomic: true)], in: r)
        try f.save((0..<130).map { f.record("warm\($0)", zone: "A", r, fields: ["i": .int64(Int64($0))]) }, r)
        let start = cloud.roundTrips
        #expect(try f.save((0..<400).map { f.record("c\($0)", zone: "A", r, fields: ["i": .int64(Int64($0))]) }, r).count == 400)
        let statements = cloud.roundTrips - start
        #expect(statements == 2, "400 creations in an atomic zone took \(statements) round trips")
        #expect(try f.allChanges("A", since: nil, r).changed.count == 530)
    }

    /// After a bulk fill the planner has statistics: a record is found by name through the
    /// primary key, not by reading its whole zone through the `(db_id, zone_id, seq)` index
    /// (which is what the planner chose without them, making a fill of 100k records quadratic
    /// until autovacuum's next round).
    @Test func aBulkFillLeavesTheTableAnalysedSoNamesAreLookedUpByKey() throws {
        let f = try CloudBackend.postgres.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        for call in 0..<4 {
            try f.save((0..<400).map { f.record("c\(call)-\($0)", zone: "Z", r, fields: ["i": .int64(Int64($0))]) }, r)
        }
        let url = try PostgresURL(f.location)
        let connection = try PostgresConnection(url)
        try connection.execute("SET search_path TO \"\(try #require(url.schema))\"")
        let plan = try connection.execute("""
            EXPLAIN SELECT name FROM records WHERE db_id = 1 AND zone_id = 2 AND name = ANY('{c1-7,c2-9}'::text[])
            """).rows.compactMap { $0[0].text }.joined(separator: "\n")
        #expect(plan.contains("records_pkey"), "\(plan)")
        #expect(!plan.contains("Filter"), "\(plan)")
    }

    /// The same when the records come one per call (32 clients saving one record at a time):
    /// the statistics are checked every 1,000 rows whatever the size of the call, so a zone
    /// filled one record at a time is not read whole at every look-up by name.
    @Test func oneRecordSavesLeaveTheTableAnalysedToo() throws {
        let f = try CloudBackend.postgres.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        for n in 0..<1_100 {
            try f.save([f.record("c\(n)", zone: "Z", r, fields: ["i": .int64(Int64(n))])], r)
        }
        let url = try PostgresURL(f.location)
        let connection = try PostgresConnection(url)
        try connection.execute("SET search_path TO \"\(try #require(url.schema))\"")
        let analysed = try #require(try connection.execute("""
            SELECT analyze_count + autoanalyze_count FROM pg_stat_user_tables WHERE relid = 'records'::regclass
            """).first).int64(0)
        #expect(analysed >= 1)
        let plan = try connection.execute("""
            EXPLAIN SELECT name FROM records WHERE db_id = 1 AND zone_id = 2 AND name = ANY('{c1,c9}'::text[])
            """).rows.compactMap { $0[0].text }.joined(separator: "\n")
        #expect(plan.contains("records_pkey"), "\(plan)")
    }

    /// A fill of 20k records is analysed as it grows by a factor (about 1k, 4k and 16k rows),
    /// not at every doubling nor at every check, and each time only the planner's columns.
    @Test func aBulkFillIsAnalysedAFewTimesOnlyOnThePlannersColumns() throws {
        let f = try CloudBackend.postgres.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        for call in 0..<50 {
            try f.save((0..<400).map { f.record("c\(call)-\($0)", zone: "Z", r, fields: ["i": .int64(Int64($0))]) }, r)
        }
        let url = try PostgresURL(f.location)
        let connection = try PostgresConnection(url)
        try connection.execute("SET search_path TO \"\(try #require(url.schema))\"")
        let counts = try #require(try connection.execute("""
            SELECT analyze_count, autoanalyze_count FROM pg_stat_user_tables WHERE relid = 'records'::regclass
            """).first)
        let analyses = try counts.int64(0)
        #expect((1...3).contains(analyses), "\(analyses) analyses of a 20k-record fill")
        let columns = try connection.execute("""
            SELECT attname FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'records' ORDER BY attname
            """).rows.compactMap { $0[0].text }
        #expect(Set(columns).isSuperset(of: ["db_id", "zone_id", "name", "seq"]), "\(columns)")
        // Unless autovacuum's own round (every column) came by meanwhile.
        if try counts.int64(1) == 0 { #expect(!columns.contains("fields"), "\(columns)") }
    }
}

/// `readOne`: a look-up by key without BEGIN and COMMIT around it; a body that runs a second
/// statement is refused rather than run on another snapshot.
@Suite("PostgreSQL one-statement reads")
struct PostgresOneStatementReadTests {
    @Test func aOneStatementReadIsOneRoundTripAndASecondStatementIsRefused() throws {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let made = try cloud.createToken(account: "alice")
        try cloud.storage.readOne { tx in _ = try tx.credential(id: "none") }
        let start = cloud.roundTrips
        let row = try cloud.storage.readOne { tx in try tx.credential(id: made.credential.id) }
        #expect(row?.account == "alice")
        #expect(cloud.roundTrips - start == 1)
        #expect(throws: CloudError.self) {
            try cloud.storage.readOne { tx in
                _ = try tx.credential(id: made.credential.id)
                return try tx.credential(id: "other")
            }
        }
        // The connection is fine after: the same read again.
        #expect(try cloud.storage.readOne { tx in try tx.credential(id: made.credential.id) }?.account == "alice")
    }
}
