import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// A clock the public-mirror cases move by hand: +1 ms per read, or frozen (every save in the
/// same millisecond), or jumped past the mirror's overlap margin.
final class MirrorClock: @unchecked Sendable {
    var now: Int64 = 1_700_000_000_000
    var frozen = false
    func read() -> Int64 {
        if !frozen { now += 1 }
        return now
    }
    func advance(by milliseconds: Int64) { now += milliseconds }
}

/// Two accounts, each with a public store, over one cloud of a backend.
final class PublicMirrorWorld: @unchecked Sendable {
    let dir = TemporaryDirectory("public-mirror")
    let clock = MirrorClock()
    let cloud: any CloudService
    let container = "iCloud.com.example.Tests"
    var stores: [String: DeviceStore] = [:]
    static let zone = ZoneID.defaultZoneName

    init(_ backend: CloudBackend, wrap: ((any CloudService) -> any CloudService)? = nil) throws {
        let clock = self.clock
        let opened = try backend.open(try backend.freshLocation(dir), { clock.read() })
        cloud = wrap?(opened) ?? opened
    }

    func request(_ account: String, device: String = "dev1") throws -> DatabaseRequest {
        DatabaseRequest(container: container, scope: .public, userRecordName: try cloud.account(named: account).userRecordName,
                        deviceID: device)
    }

    func store(_ account: String) throws -> DeviceStore {
        if let store = stores[account] { return store }
        let store = try DeviceStore(path: dir.file("\(account)-public.sqlite"))
        stores[account] = store
        return store
    }

    func mirror(_ account: String, types: [String] = ["Post"], pageSize: Int = 2000, scanPageSize: Int = 2000,
                forceScan: Bool = false) throws -> PublicMirror {
        let clock = self.clock
        let mirror = PublicMirror(cloud: cloud, store: try store(account), request: try request(account),
                                  adapter: GenericStoreAdapter(zoneName: Self.zone), recordTypes: types, clock: { clock.now })
        mirror.pageSize = pageSize
        mirror.scanPageSize = scanPageSize
        mirror.forceScan = forceScan
        return mirror
    }

    @discardableResult
    func sync(_ account: String, forceScan: Bool = false) throws -> SyncReport {
        try mirror(account, forceScan: forceScan).sync()
    }

    func put(_ account: String, _ name: String, _ fields: [String: FieldValue], type: String = "Post") throws {
        try store(account).put(container: container, zone: Self.zone, name: name, type: type, fields: fields, device: "dev1",
                               now: clock.read())
    }

    func local(_ account: String) throws -> [String: [String: FieldValue]] {
        Dictionary(uniqueKeysWithValues: try store(account).localRecords(container: container, type: nil)
            .map { ($0.recordName, $0.fields) })
    }

    func pending(_ account: String, _ name: String) throws -> Bool {
        try store(account).isPending(container: container, zone: Self.zone, name: name)
    }

    /// Saves public records straight to the cloud as `account`, `perCall` a modify call.
    func saveInCloud(_ names: [String], as account: String, perCall: Int = 400, fields: [String: FieldValue] = ["n": .int64(1)]) throws {
        let request = try request(account, device: "writer")
        for start in stride(from: 0, to: names.count, by: perCall) {
            let records = names[start..<min(start + perCall, names.count)].map {
                Record(recordID: RecordID(recordName: $0, zoneID: request.zoneID(Self.zone)), recordType: "Post", fields: fields)
            }
            let result = try cloud.modifyRecords(ModifyRequest(saves: Array(records), policy: .allKeys), in: request)
            if let failure = result.partialFailure { throw failure }
        }
    }
}

/// The public mirror (issue 18, seed 002) on every backend: what the private store does with
/// change tokens, the public store does with modification-time queries and full scans.
@Suite("Public mirror (conformance)")
struct PublicMirrorConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func twoAccountsMirrorOneTypeWithEditsDeletesAndRefusals(backend: CloudBackend) throws {
        let w = try PublicMirrorWorld(backend)
        try w.put("alice", "p1", ["title": .string("Hello")])
        try w.put("alice", "p2", ["title": .string("Second")])
        let pushed = try w.sync("alice")
        #expect(pushed.savedRecords == 2 && pushed.failures.isEmpty && pushed.pendingAfter == 0)

        let first = try w.sync("bob")
        #expect(first.pulledChanges == 2)
        #expect(try w.local("bob") == ["p1": ["title": .string("Hello")], "p2": ["title": .string("Second")]])
        #expect(try !w.pending("bob", "p1"))
        // Nothing changed: the overlap margin returns the records again; their change tags skip them.
        #expect(try w.sync("bob").pulledChanges == 0)

        // The creator edits; the other account pulls the edit.
        try w.put("alice", "p1", ["title": .string("Edited")])
        #expect(try w.sync("alice").savedRecords == 1)
        #expect(try w.sync("bob").pulledChanges == 1)
        #expect(try w.local("bob")["p1"] == ["title": .string("Edited")])

        // Another account's record: the cloud refuses (77), the edit stays pending, logged.
        try w.put("bob", "p1", ["body": .string("mine")])
        let refused = try w.sync("bob")
        let failure = try #require(refused.failures.first)
        #expect(failure.key.recordName == "p1" && failure.value.code == .permissionFailure)
        #expect(try w.pending("bob", "p1") && refused.pendingAfter == 1)
        #expect(try w.store("bob").conflicts(container: w.container, unresolvedOnly: true).map(\.recordName) == ["p1"])
        let inCloud = try w.cloud.fetchRecords([RecordID(recordName: "p1", zoneID: try w.request("bob").zoneID(PublicMirrorWorld.zone))],
                                               in: try w.request("bob"))
        let cloudCopy = try #require(try inCloud.values.first?.get())
        #expect(cloudCopy["title"] == .string("Edited") && cloudCopy["body"] == nil)
        // A pending refused edit still merges what the creator changes next (merge policy fields).
        try w.put("alice", "p1", ["title": .string("Third")])
        try w.sync("alice")
        _ = try w.sync("bob")
        #expect(try w.local("bob")["p1"] == ["title": .string("Third"), "body": .string("mine")])

        // Deleted upstream: found by the full scan, not by the incremental pull.
        #expect(try w.store("alice").deleteLocal(container: w.container, zone: PublicMirrorWorld.zone, name: "p2",
                                                 device: "dev1", now: w.clock.read()) != nil)
        #expect(try w.sync("alice").deletedRecords == 1)
        #expect(try w.sync("bob").pulledDeletions == 0)
        #expect(try w.local("bob")["p2"] != nil, "an incremental pull cannot see deletions")
        let scanned = try w.sync("bob", forceScan: true)
        #expect(scanned.pulledDeletions == 1)
        #expect(try w.local("bob")["p2"] == nil)
        // Deleting another account's record is refused too.
        try w.store("bob").deleteLocal(container: w.container, zone: PublicMirrorWorld.zone, name: "p1", device: "dev1",
                                       now: w.clock.read())
        #expect(try w.sync("bob").failures.values.map(\.code) == [.permissionFailure])
    }

    @Test(arguments: CloudBackend.allCases)
    func theCreatorsTwoDevicesConflictAsInThePrivateStore(backend: CloudBackend) throws {
        let w = try PublicMirrorWorld(backend)
        try w.put("alice", "p1", ["title": .string("Hello"), "body": .string("one")])
        try w.sync("alice")
        // alice's second device is a second public store of the same account.
        try w.put("alice2", "unused", [:]) // make the store
        _ = try w.store("alice2").deleteLocal(container: w.container, zone: PublicMirrorWorld.zone, name: "unused",
                                              device: "dev2", now: w.clock.read())
        let phone = PublicMirror(cloud: w.cloud, store: try w.store("alice2"), request: try w.request("alice", device: "dev2"),
                                 adapter: GenericStoreAdapter(zoneName: PublicMirrorWorld.zone), recordTypes: ["Post"])
        _ = try phone.sync()
        try w.put("alice", "p1", ["title": .string("Laptop title"), "body": .string("one")])
        try w.store("alice2").put(container: w.container, zone: PublicMirrorWorld.zone, name: "p1", type: "Post",
                                  fields: ["title": .string("Hello"), "body": .string("phone body")], device: "dev2",
                                  now: w.clock.read())
        try w.sync("alice")
        let report = try phone.sync()
        #expect(report.conflicts.map(\.recordName) == ["p1"] && report.failures.isEmpty)
        try w.sync("alice")
        let merged: [String: FieldValue] = ["title": .string("Laptop title"), "body": .string("phone body")]
        #expect(try w.local("alice")["p1"] == merged)
        #expect(try w.local("alice2")["p1"] == merged)
    }

    @Test(arguments: CloudBackend.allCases)
    func aQuerySubscriptionPerTypeNotifiesTheAccountsDevices(backend: CloudBackend) throws {
        let w = try PublicMirrorWorld(backend)
        let mirror = try w.mirror("bob", types: ["Post", "Comment"])
        _ = try mirror.sync()
        #expect(mirror.work.subscriptionsCreated == 2)
        let ids = try w.cloud.fetchAllSubscriptions(in: try w.request("bob")).map(\.subscriptionID).sorted()
        #expect(ids == ["cloudsync-public-Comment", "cloudsync-public-Post"])
        let again = try w.mirror("bob", types: ["Post", "Comment"])
        _ = try again.sync()
        #expect(again.work.subscriptionsCreated == 0, "made once per device")
        let device = DeviceAddress(container: w.container, userRecordName: try w.request("bob").userRecordName, deviceID: "dev1")
        try w.cloud.registerDevice(device)
        try w.saveInCloud(["x1"], as: "alice")
        let notes = try w.cloud.takeNotifications(for: device, limit: 10)
        #expect(notes.count == 1)
    }

    /// Key paging: a record changed between pages moves to the end of the order; offset paging
    /// would then skip the record that slid into its place. A group of one millisecond larger
    /// than a page makes the page grow instead of looping.
    @Test(arguments: CloudBackend.allCases)
    func pagingMissesNoRecordWhenRecordsChangeBetweenPagesOrShareATime(backend: CloudBackend) throws {
        let touch = TouchingCloudBox()
        let w = try PublicMirrorWorld(backend) { cloud in
            let wrapper = TouchingCloud(base: cloud)
            touch.cloud = wrapper
            return wrapper
        }
        let names = (0..<30).map { "r" + String(100 + $0) }
        try w.saveInCloud(names, as: "alice", perCall: 1)
        // After the first page, r100 (the oldest) is saved again: it moves to the end.
        touch.cloud?.afterFirstQuery = { [w] in try w.saveInCloud(["r100"], as: "alice", fields: ["n": .int64(2)]) }
        let mirror = try w.mirror("bob", pageSize: 5, scanPageSize: 5)
        _ = try mirror.sync()
        #expect(try Set(w.local("bob").keys) == Set(names))
        #expect(try w.local("bob")["r100"] == ["n": .int64(2)])

        // 50 records saved in one millisecond, pages of 5: the page grows to hold them (5, 20,
        // 80) instead of asking for the same five again and again.
        w.clock.advance(by: 10 * PublicMirror.overlapMargin)
        w.clock.frozen = true
        try w.saveInCloud((0..<50).map { "s" + String(100 + $0) }, as: "alice", perCall: 50)
        w.clock.frozen = false
        let next = try w.mirror("bob", pageSize: 5)
        _ = try next.sync()
        #expect(try w.local("bob").count == 80)
        #expect(next.work.recordsApplied == 50 && next.work.queries < 20, "\(next.work)")
    }

    /// The cost of finding deletions by full scan, counted in cloud work at 10,000 records:
    /// every record is read once per scan (plus the records of one save that straddle a page
    /// boundary), in about N / scanPageSize queries; an incremental pull reads only what
    /// changed within the overlap margin.
    @Test(arguments: [CloudBackend.sqlite, CloudBackend.memory])
    func aFullScanReadsEachRecordOnceAndAnIncrementalPullOnlyTheChanges(backend: CloudBackend) throws {
        let w = try PublicMirrorWorld(backend)
        let n = 10_000
        try w.saveInCloud((0..<n).map { "k" + String(100_000 + $0) }, as: "alice")
        w.clock.advance(by: 10 * PublicMirror.overlapMargin)
        let first = try w.mirror("bob")
        let initial = try first.sync()
        #expect(initial.pulledChanges == n)
        #expect(first.work.scannedTypes == ["Post"])
        #expect(first.work.recordsReturned >= n && first.work.recordsReturned <= n + n / 4, "\(first.work)")
        #expect(first.work.queries <= 2 * n / 2000 + 2, "\(first.work)")

        // The overlap margin counts back from the newest record seen: while no newer record
        // arrives, each pull reads again what was saved within a minute of it (here all 10,000,
        // saved in one burst), skipping them by change tag.
        w.clock.advance(by: 10 * PublicMirror.overlapMargin)
        try w.saveInCloud(["marker"], as: "alice")
        let afterBurst = try w.mirror("bob")
        #expect(try afterBurst.sync().pulledChanges == 1)
        #expect(afterBurst.work.recordsApplied == 1, "\(afterBurst.work)")
        #expect(afterBurst.work.recordsReturned >= n + 1 && afterBurst.work.recordsReturned <= n + 1 + n / 4, "\(afterBurst.work)")
        // Incremental: 10 changes a while later read the marker (in the margin) and the 10.
        w.clock.advance(by: 10 * PublicMirror.overlapMargin)
        try w.saveInCloud((0..<10).map { "k" + String(100_000 + $0) }, as: "alice", fields: ["n": .int64(2)])
        let incremental = try w.mirror("bob")
        #expect(try incremental.sync().pulledChanges == 10)
        #expect(incremental.work.scannedTypes.isEmpty)
        #expect(incremental.work.recordsReturned == 11 && incremental.work.queries == 1, "\(incremental.work)")

        // A scan after 100 deletions: every record read again, nothing rewritten, 100 removed.
        let writer = try w.request("alice", device: "writer")
        let gone = (0..<100).map { RecordID(recordName: "k" + String(105_000 + $0), zoneID: writer.zoneID(PublicMirrorWorld.zone)) }
        _ = try w.cloud.modifyRecords(ModifyRequest(deletes: gone), in: writer)
        let scan = try w.mirror("bob", forceScan: true)
        let report = try scan.sync()
        #expect(report.pulledDeletions == 100 && report.pulledChanges == 0)
        #expect(scan.work.recordsApplied == 0)
        #expect(scan.work.recordsReturned >= n - 99 && scan.work.recordsReturned <= (n - 99) + n / 4, "\(scan.work)")
        #expect(try w.local("bob").count == n - 100 + 1)
    }
}

/// Holds the touching cloud a world was made with.
final class TouchingCloudBox: @unchecked Sendable {
    var cloud: TouchingCloud?
}

/// Runs a hook once, right after the first query answered (to change the cloud between pages).
final class TouchingCloud: ForwardingCloud, @unchecked Sendable {
    var afterFirstQuery: (() throws -> Void)?

    override func queryRecords(_ query: RecordQuery, in d: DatabaseRequest) throws(CloudError) -> QueryPage {
        let page = try base.queryRecords(query, in: d)
        if let hook = afterFirstQuery {
            afterFirstQuery = nil
            do { try hook() } catch { throw CloudError(.internalError, "hook: \(error)") }
        }
        return page
    }
}
