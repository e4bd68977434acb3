import CloudSyncCloud
import CloudSyncCore
import CloudSyncPostgresCloud
import TestSupport
import Testing

/// PostgreSQL: a modify call's records go to the server as one batch, not one statement each
/// (counted in statements sent, not timed).
@Suite("PostgreSQL round trips")
struct PostgresRoundTripTests {
    @Test func aCallOf400CreationsOrUpdatesCostsAFewStatements() throws {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        // Warm: statements prepared, schema fields known.
        try f.save((0..<3).map { f.record("warm\($0)", zone: "Z", r, fields: ["i": .int64(Int64($0))]) }, r)

        let creations = (0..<400).map { f.record("c\($0)", zone: "Z", r, fields: ["i": .int64(Int64($0))]) }
        var start = cloud.roundTrips
        let saved = try f.save(creations, r)
        let creating = cloud.roundTrips - start
        #expect(saved.count == 400)
        #expect(creating < 40, "400 creations took \(creating) statements")

        let updates = saved.map { record in
            var record = record
            record.fields["i"] = .int64(-1)
            return record
        }
        start = cloud.roundTrips
        #expect(try f.save(updates, r).count == 400)
        let updating = cloud.roundTrips - start
        #expect(updating < 40, "400 updates took \(updating) statements")
        #expect(try f.allChanges("Z", since: nil, r).changed.filter { $0.fields["i"] == .int64(-1) }.count == 400)
    }
}
