import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// One cloud and helpers to make devices of it.
final class DeviceWorld: @unchecked Sendable {
    let dir = TemporaryDirectory("device-tests")
    let cloud: SQLiteCloud
    let container = "iCloud.com.example.DeviceTests"

    init() throws { cloud = try SQLiteCloud(path: dir.file("cloud.sqlite")) }

    func request(_ account: String = "alice", device: String = "laptop") throws -> DatabaseRequest {
        DatabaseRequest(container: container, scope: .private,
                        userRecordName: try cloud.account(named: account).userRecordName, deviceID: device)
    }

    func store(_ device: String) throws -> DeviceStore { try DeviceStore(path: dir.file("\(device).sqlite")) }

    /// Alice's zone Trips (rome and oslo) shared with bob at `permission`, and accepted by him on
    /// his phone: alice's request, bob's, and bob's in the shared database.
    func aliceSharesTripsWithBob(_ permission: SharePermission)
        throws -> (alice: DatabaseRequest, bob: DatabaseRequest, bobShared: DatabaseRequest) {
        let alice = try request("alice")
        let bob = try request("bob", device: "phone")
        var bobShared = bob
        bobShared.scope = .shared
        _ = try cloud.saveZones([ZoneSpec(name: "Trips")], in: alice)
        try save(["rome", "oslo"], zone: "Trips", as: alice)
        let share = try cloud.saveShare(zoneName: "Trips", title: nil, publicPermission: permission, in: alice)
        _ = try cloud.acceptShare(url: share.url, in: bobShared)
        return (alice, bob, bobShared)
    }

    func save(_ names: [String], zone: String, fields: [String: FieldValue] = [:], as request: DatabaseRequest) throws {
        let records = names.map { Record(recordID: RecordID(recordName: $0, zoneID: request.zoneID(zone)), recordType: "Note", fields: fields) }
        for chunk in stride(from: 0, to: records.count, by: 400) {
            let result = try cloud.modifyRecords(ModifyRequest(saves: Array(records[chunk..<min(chunk + 400, records.count)]),
                                                               policy: .allKeys), in: request)
            if let failure = result.partialFailure { throw failure }
        }
    }

    func names(_ store: DeviceStore, zone: String, _ request: DatabaseRequest) throws -> [String] {
        try store.cachedRecords(in: request.zoneID(zone), CacheScope(container: container, scope: .private), limit: 100_000)
            .map(\.recordID.recordName)
    }
}

@Suite("Change fetcher (seed 001 flow)")
struct ChangeFetcherTests {
    @Test func fetchesEverythingThenNothing() throws {
        let w = try DeviceWorld()
        let laptop = try w.request()
        _ = try w.cloud.saveZones([ZoneSpec(name: "A"), ZoneSpec(name: "B")], in: laptop)
        try w.save((0..<50).map { "a\($0)" }, zone: "A", as: laptop)
        try w.save(["b1"], zone: "B", as: laptop)
        let phone = try w.store("phone")
        let fetcher = ChangeFetcher(cloud: w.cloud, store: phone, request: try w.request(device: "phone"), pageSize: 7)
        var events = 0
        let first = try fetcher.fetch { if case .recordChanged = $0 { events += 1 } }
        #expect(first.changedRecords == 51 && events == 51)
        #expect(first.pages == 8 + 1)
        #expect(try w.names(phone, zone: "A", laptop).count == 50)
        let second = try fetcher.fetch()
        #expect(second.isEmpty)
        #expect(second.zonesFetched == 0, "with nothing new, no zone is fetched")
    }

    @Test func appliesUpdatesDeletionsAndZoneDeletions() throws {
        let w = try DeviceWorld()
        let laptop = try w.request()
        _ = try w.cloud.saveZones([ZoneSpec(name: "A"), ZoneSpec(name: "Gone")], in: laptop)
        try w.save(["x", "y"], zone: "A", as: laptop)
        try w.save(["g"], zone: "Gone", as: laptop)
        let phone = try w.store("phone")
        let fetcher = ChangeFetcher(cloud: w.cloud, store: phone, request: try w.request(device: "phone"))
        try fetcher.fetch()
        try w.save(["x"], zone: "A", fields: ["v": .int64(2)], as: laptop)
        _ = try w.cloud.modifyRecords(ModifyRequest(deletes: [RecordID(recordName: "y", zoneID: laptop.zoneID("A"))]), in: laptop)
        try w.cloud.deleteZones(["Gone"], purge: false, in: laptop)
        var zoneDeleted: [String] = []
        let summary = try fetcher.fetch { if case .zoneDeleted(let z, _, _) = $0 { zoneDeleted.append(z.zoneName) } }
        #expect(summary.changedRecords == 1 && summary.deletedRecords == 1)
        #expect(zoneDeleted == ["Gone"])
        #expect(try w.names(phone, zone: "A", laptop) == ["x"])
        #expect(try w.names(phone, zone: "Gone", laptop).isEmpty)
        let scope = CacheScope(container: w.container, scope: .private)
        #expect(try phone.cachedRecord(RecordID(recordName: "x", zoneID: laptop.zoneID("A")), scope)?.fields["v"] == .int64(2))
        #expect(try phone.zoneToken(laptop.zoneID("Gone"), scope) == nil)
    }

    @Test func recreatedZoneReplacesTheOldCache() throws {
        let w = try DeviceWorld()
        let laptop = try w.request()
        _ = try w.cloud.saveZones([ZoneSpec(name: "A")], in: laptop)
        try w.save(["old1", "old2"], zone: "A", as: laptop)
        let phone = try w.store("phone")
        let fetcher = ChangeFetcher(cloud: w.cloud, store: phone, request: try w.request(device: "phone"))
        try fetcher.fetch()
        try w.cloud.deleteZones(["A"], purge: false, in: laptop)
        _ = try w.cloud.saveZones([ZoneSpec(name: "A")], in: laptop)
        try w.save(["new"], zone: "A", as: laptop)
        try fetcher.fetch()
        #expect(try w.names(phone, zone: "A", laptop) == ["new"])
    }

    @Test func anotherCloudFileExpiresTokensAndRebuilds() throws {
        let w = try DeviceWorld()
        let laptop = try w.request()
        _ = try w.cloud.saveZones([ZoneSpec(name: "A"), ZoneSpec(name: "OnlyInOld")], in: laptop)
        try w.save(["x"], zone: "A", as: laptop)
        try w.save(["o"], zone: "OnlyInOld", as: laptop)
        let phone = try w.store("phone")
        try ChangeFetcher(cloud: w.cloud, store: phone, request: try w.request(device: "phone")).fetch()
        // The same device pointed at a different cloud: same account name, fresh store.
        let other = try SQLiteCloud(path: w.dir.file("other.sqlite"))
        let r2 = DatabaseRequest(container: w.container, scope: .private, userRecordName: laptop.userRecordName, deviceID: "phone")
        _ = try other.saveZones([ZoneSpec(name: "A")], in: r2)
        _ = try other.modifyRecords(ModifyRequest(saves: [Record(recordID: RecordID(recordName: "fresh", zoneID: r2.zoneID("A")), recordType: "Note")]), in: r2)
        try ChangeFetcher(cloud: other, store: phone, request: r2).fetch()
        #expect(try w.names(phone, zone: "A", laptop) == ["fresh"])
        #expect(try w.names(phone, zone: "OnlyInOld", laptop).isEmpty)
    }

    @Test func interruptedFetchNeverStoresATokenAheadOfData() throws {
        let w = try DeviceWorld()
        let laptop = try w.request()
        _ = try w.cloud.saveZones([ZoneSpec(name: "A")], in: laptop)
        try w.save((0..<100).map { "r\($0)" }, zone: "A", as: laptop)
        let phone = try w.store("phone")
        let scope = CacheScope(container: w.container, scope: .private)
        // The third zone page fails: two pages (20 records) are applied with their token.
        let faulty = FaultInjectingCloud(wrapping: w.cloud, plan: FaultPlan(faults: []))
        let counting = CountdownCloud(base: faulty, failFetchZoneChangesAfter: 2)
        let request = try w.request(device: "phone")
        #expect(throws: CloudError.self) {
            try ChangeFetcher(cloud: counting, store: phone, request: request, pageSize: 10).fetch()
        }
        #expect(try phone.cachedRecordCount(nil, scope) == 20)
        #expect(try phone.databaseToken(scope) == nil, "the database token is stored only after every zone")
        let token = try #require(try phone.zoneToken(laptop.zoneID("A"), scope))
        // The stored token resumes exactly after the 20 applied records.
        let rest = try w.cloud.fetchZoneChanges("A", since: token, limit: 1000, in: request)
        #expect(rest.changed.count == 80)
        let summary = try ChangeFetcher(cloud: w.cloud, store: phone, request: request, pageSize: 10).fetch()
        #expect(summary.changedRecords == 80)
        #expect(try phone.cachedRecordCount(nil, scope) == 100)
    }

    @Test func singleZoneFetchLeavesTheDatabaseTokenAlone() throws {
        let w = try DeviceWorld()
        let laptop = try w.request()
        _ = try w.cloud.saveZones([ZoneSpec(name: "A"), ZoneSpec(name: "B")], in: laptop)
        try w.save(["a"], zone: "A", as: laptop)
        try w.save(["b"], zone: "B", as: laptop)
        let phone = try w.store("phone")
        let fetcher = ChangeFetcher(cloud: w.cloud, store: phone, request: try w.request(device: "phone"))
        #expect(try fetcher.fetch(zones: ["A"]).changedRecords == 1)
        let scope = CacheScope(container: w.container, scope: .private)
        #expect(try phone.databaseToken(scope) == nil)
        // The full fetch then brings B and nothing twice.
        #expect(try fetcher.fetch().changedRecords == 1)
    }

    @Test func corruptDeviceFileIsABadDatabase() throws {
        let dir = TemporaryDirectory()
        let path = dir.write("device.sqlite", String(repeating: "garbage ", count: 600))
        #expect(throws: CloudError.self) { _ = try DeviceStore(path: path) }
        do { _ = try DeviceStore(path: path) } catch { #expect(error.code == .badDatabase) }
    }
}

/// Fails `fetchZoneChanges` with networkUnavailable after `n` successful calls.
final class CountdownCloud: ForwardingCloud, @unchecked Sendable {
    var remaining: Int
    init(base: any CloudService, failFetchZoneChangesAfter n: Int) {
        remaining = n
        super.init(base: base)
    }
    override func fetchZoneChanges(_ z: String, since t: ServerChangeToken?, limit: Int, in d: DatabaseRequest) throws(CloudError) -> ZoneChanges {
        if remaining == 0 { throw CloudError(.networkUnavailable, "cable pulled") }
        remaining -= 1
        return try base.fetchZoneChanges(z, since: t, limit: limit, in: d)
    }
}
