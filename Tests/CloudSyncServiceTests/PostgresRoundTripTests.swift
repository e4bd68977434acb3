import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres
import CloudSyncPostgresCloud
import TestSupport
import Testing

/// PostgreSQL: a modify call's records go to the server as one batch, not one statement each
/// (counted in statements sent, not timed).
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
        // BEGIN, the database and zone rows locked (which also tells that the zone has no share
        // and no subscription to notify), the rows read ahead, three batches of 128 rows sent
        // ahead (the server writes them while the next ones are prepared), the last rows
        // written with both counters taken, COMMIT: no savepoint in a non-atomic zone.
        #expect(creating == 9, "400 creations took \(creating) statements")
        #expect(try f.allChanges("Z", since: nil, r).changed.count == 530)
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
        #expect(updating == 9, "400 updates took \(updating) statements")
        let changes = try f.allChanges("Z", since: nil, r)
        #expect(changes.changed.filter { $0.fields["i"] == .int64(-1) }.count == 400)
        #expect(changes.changed.count == 400)
    }

    /// An atomic zone's call keeps its savepoint (one statement more: it ends with the
    /// transaction, no RELEASE), so one failing record
    /// still undoes the others (`BatchedModifyConformanceTests`).
    @Test func anAtomicZoneAddsOnlyItsSavepoint() throws {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "A", atomic: true)], in: r)
        try f.save((0..<130).map { f.record("warm\($0)", zone: "A", r, fields: ["i": .int64(Int64($0))]) }, r)
        let start = cloud.roundTrips
        #expect(try f.save((0..<400).map { f.record("c\($0)", zone: "A", r, fields: ["i": .int64(Int64($0))]) }, r).count == 400)
        let statements = cloud.roundTrips - start
        #expect(statements == 10, "400 creations in an atomic zone took \(statements) statements")
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
