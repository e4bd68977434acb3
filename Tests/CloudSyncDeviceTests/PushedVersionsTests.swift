import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// The pull of a sync skips the versions the same sync pushed (issue 16): counted work, not time.
@Suite("Synchronizer: the pull skips what the same sync pushed")
struct PushedVersionsTests {
    let scopeOf = { (w: SyncWorld) in CacheScope(container: w.container, scope: .private, cursor: .localStore) }

    /// History transactions the pull wrote (author `sync`).
    func syncHistory(_ w: SyncWorld, _ device: String) throws -> Int {
        try w.store(device).history(container: w.container).filter { $0.author == LocalStoreDefaults.syncAuthor }.count
    }

    @Test func firstSyncAppliesNoneOfItsOwnRecords() throws {
        let w = try SyncWorld()
        for i in 0..<30 { try w.put("a", "r\(i)", ["i": .int64(Int64(i))]) }
        let report = try w.synchronizer("a", batchSize: 7).sync()
        #expect(report.savedRecords == 30)
        #expect(report.ownPushedRecords == 30, "all 30 came back from the change feed")
        #expect(report.pulledChanges == 0, "none was applied again")
        #expect(try syncHistory(w, "a") == 0)
        // The base the push cached is kept (not dropped and rebuilt by the first pull), and the
        // zone token is stored, so the next sync is incremental.
        let zone = try w.world.request(device: "a").zoneID(LocalStoreDefaults.zoneName)
        #expect(try w.store("a").cachedRecordCount(zone, scopeOf(w)) == 30)
        #expect(try w.store("a").zoneToken(zone, scopeOf(w)) != nil)
        #expect(try w.store("a").pendingCount(container: w.container) == 0)
        let again = try w.sync("a")
        #expect(again.pulledChanges == 0 && again.ownPushedRecords == 0 && again.savedRecords == 0)
        // Another device still gets everything, and a's next edit is an ordinary update.
        #expect(try w.sync("b").pulledChanges == 30)
        try w.put("a", "r3", ["i": .int64(300)])
        try w.put("b", "r4", ["i": .int64(400)])
        #expect(try w.sync("b").savedRecords == 1)
        let mixed = try w.sync("a")
        #expect(mixed.savedRecords == 1 && mixed.ownPushedRecords == 1 && mixed.pulledChanges == 1)
        #expect(mixed.conflicts.isEmpty)
        try w.sync("b")
        #expect(try w.contents("a") == (try w.contents("b")))
    }

    @Test func aFirstSyncWithItsOwnRecordsGetsTheOthersToo() throws {
        let w = try SyncWorld()
        for i in 0..<12 { try w.put("a", "a\(i)", ["i": .int64(Int64(i))]) }
        try w.sync("a")
        for i in 0..<9 { try w.put("b", "b\(i)", ["i": .int64(Int64(i))]) }
        let report = try w.synchronizer("b", batchSize: 4).sync()
        #expect(report.savedRecords == 9 && report.ownPushedRecords == 9 && report.pulledChanges == 12)
        let zone = try w.world.request(device: "b").zoneID(LocalStoreDefaults.zoneName)
        #expect(try w.store("b").cachedRecordCount(zone, scopeOf(w)) == 21)
        try w.sync("a")
        #expect(try w.contents("a").count == 21)
        #expect(try w.contents("a") == (try w.contents("b")))
    }

    @Test func aPushedRecordChangedBeforeThePullIsApplied() throws {
        let w = try SyncWorld()
        try w.put("a", "n", ["v": .int64(1)])
        try w.put("a", "m", ["v": .int64(1)])
        try w.sync("a"); try w.sync("b")
        try w.put("a", "n", ["v": .int64(2)])
        try w.put("a", "m", ["v": .int64(2)])
        let a = try w.synchronizer("a")
        var report = SyncReport()
        try a.push(&report)
        // Between a's push and its pull, b changes n: its tag is no longer the pushed one.
        try w.sync("b")
        try w.put("b", "n", ["v": .int64(3)])
        try w.sync("b")
        try a.pull(&report)
        #expect(report.ownPushedRecords == 1, "m came back as pushed")
        #expect(report.pulledChanges == 1, "n changed since")
        #expect(try w.contents("a")["n"] == ["v": .int64(3)])
        #expect(try w.contents("a") == (try w.contents("b")))
    }

    @Test func aZoneRecreatedDuringTheSyncIsPulledWhole() throws {
        let w = try SyncWorld()
        for i in 0..<5 { try w.put("a", "r\(i)", ["i": .int64(Int64(i))]) }
        try w.sync("a")
        try w.world.cloud.deleteZones([LocalStoreDefaults.zoneName], purge: true, in: try w.world.request(device: "a"))
        try w.put("a", "r0", ["i": .int64(100)])
        let report = try w.sync("a")
        #expect(report.recreatedZones == [LocalStoreDefaults.zoneName])
        #expect(try w.store("a").pendingCount(container: w.container) == 0)
        let zone = try w.world.request(device: "a").zoneID(LocalStoreDefaults.zoneName)
        #expect(try w.store("a").cachedRecordCount(zone, scopeOf(w)) == 5)
        try w.sync("b")
        #expect(try w.contents("b") == (try w.contents("a")))
    }
}
