import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// Devices of one account syncing a local store through one cloud.
final class SyncWorld: @unchecked Sendable {
    let world: DeviceWorld
    var stores: [String: DeviceStore] = [:]
    let container: String

    init() throws {
        world = try DeviceWorld()
        container = world.container
    }

    func store(_ device: String) throws -> DeviceStore {
        if let s = stores[device] { return s }
        let s = try world.store(device)
        stores[device] = s
        return s
    }

    func put(_ device: String, _ name: String, _ fields: [String: FieldValue], type: String = "Note", now: Int64 = 0) throws {
        try store(device).put(container: container, zone: LocalStoreDefaults.zoneName, name: name, type: type, fields: fields,
                              device: device, now: now == 0 ? systemClock() : now)
    }

    func delete(_ device: String, _ name: String) throws {
        try store(device).deleteLocal(container: container, zone: LocalStoreDefaults.zoneName, name: name, device: device, now: systemClock())
    }

    func synchronizer(_ device: String, cloud: (any CloudService)? = nil, policy: MergePolicy = .fields,
                      batchSize: Int = 400) throws -> Synchronizer {
        var options = SyncOptions()
        options.mergePolicy = policy
        options.batchSize = batchSize
        return Synchronizer(cloud: cloud ?? world.cloud, store: try store(device), request: try world.request(device: device),
                            adapter: GenericStoreAdapter(), options: options)
    }

    @discardableResult
    func sync(_ device: String, cloud: (any CloudService)? = nil, policy: MergePolicy = .fields) throws -> SyncReport {
        try synchronizer(device, cloud: cloud, policy: policy).sync()
    }

    func contents(_ device: String) throws -> [String: [String: FieldValue]] {
        Dictionary(uniqueKeysWithValues: try store(device).localRecords(container: container, type: nil).map { ($0.recordName, $0.fields) })
    }
}

@Suite("Synchronizer")
struct SynchronizerTests {
    @Test func threeDevicesEditingOfflineConverge() throws {
        let w = try SyncWorld()
        try w.put("a", "shared", ["title": .string("from a")])
        try w.sync("a")
        try w.sync("b"); try w.sync("c")
        // Offline edits on all three: different fields of one record, plus own records and a delete.
        try w.put("a", "shared", ["title": .string("a edits title")])
        try w.put("b", "shared", ["body": .string("b adds body")])
        try w.put("c", "shared", ["count": .int64(3)])
        try w.put("a", "onlyA", ["x": .int64(1)])
        try w.put("b", "onlyB", ["x": .int64(2)])
        try w.put("c", "onlyC", ["x": .int64(3)])
        try w.delete("c", "onlyC")
        for order in [["c", "a", "b"], ["b", "c", "a"]] { for d in order { try w.sync(d) } }
        let a = try w.contents("a")
        #expect(a == (try w.contents("b")))
        #expect(a == (try w.contents("c")))
        #expect(a["shared"] == ["title": .string("a edits title"), "body": .string("b adds body"), "count": .int64(3)])
        #expect(Set(a.keys) == ["shared", "onlyA", "onlyB"])
        for d in ["a", "b", "c"] { #expect(try w.store(d).pendingCount(container: w.container) == 0) }
    }

    @Test(arguments: MergePolicy.allCases)
    func eachPolicyOnTheSameConflict(_ policy: MergePolicy) throws {
        let w = try SyncWorld()
        let start = systemClock()
        try w.put("a", "n", ["title": .string("base"), "body": .string("base"), "tag": .string("base")], now: start)
        try w.sync("a"); try w.sync("b")
        // a edits first and pushes (the cloud stamps it now); b's offline edit is a minute later.
        try w.put("a", "n", ["title": .string("A"), "body": .string("A-body")], now: start + 1)
        try w.put("b", "n", ["title": .string("B"), "tag": .string("B-tag")], now: start + 60_000)
        try w.sync("a")
        let report = try w.sync("b", policy: policy)
        try w.sync("a", policy: policy)
        let result = try #require(try w.contents("b")["n"])
        #expect(result == (try w.contents("a")["n"]), "both devices end identical")
        switch policy {
        case .fields:
            #expect(result == ["title": .string("B"), "body": .string("A-body"), "tag": .string("B-tag")])
        case .server:
            #expect(result == ["title": .string("A"), "body": .string("A-body"), "tag": .string("base")])
        case .client:
            #expect(result == ["title": .string("B"), "body": .string("base"), "tag": .string("B-tag")])
        case .newest:
            #expect(result == ["title": .string("B"), "body": .string("base"), "tag": .string("B-tag")])
        }
        #expect(report.conflicts.count == 1)
        #expect(report.conflicts.first?.policy == policy)
        let logged = try w.store("b").conflicts(container: w.container)
        #expect(logged.count == 1 && logged[0].resolved)
    }

    @Test func transientFaultsAreRetriedThenGiveUp() throws {
        let w = try SyncWorld()
        try w.put("a", "n1", ["v": .int64(1)])
        let flaky = FaultInjectingCloud(wrapping: w.world.cloud, plan: try FaultPlan(parsing: "networkUnavailable:3,zoneBusy:1,requestRateLimited:1"))
        let retrying = RetryingCloud(wrapping: flaky, policy: RetryPolicy(maxAttempts: 6, baseDelay: 0.001, maxDelay: 0.01))
        let report = try w.sync("a", cloud: retrying)
        #expect(report.savedRecords == 1)
        #expect(flaky.dataCallCount > 5)
        // A fault that outlasts the retries fails the sync; the local change stays pending.
        try w.put("a", "n2", ["v": .int64(2)])
        let dead = FaultInjectingCloud(wrapping: w.world.cloud, plan: try FaultPlan(parsing: "networkUnavailable:50"))
        let gaveUp = RetryingCloud(wrapping: dead, policy: RetryPolicy(maxAttempts: 3, baseDelay: 0.001, maxDelay: 0.01))
        do {
            try w.sync("a", cloud: gaveUp)
            Issue.record("sync should fail")
        } catch let error as CloudError {
            #expect(error.code == .networkUnavailable)
            #expect(error.reason.contains("gave up after 3 tries"))
        }
        #expect(try w.store("a").pendingCount(container: w.container) == 1)
        #expect(try w.contents("a")["n2"] == ["v": .int64(2)])
    }

    @Test func limitExceededSplitsTheBatch() throws {
        let w = try SyncWorld()
        for i in 0..<40 { try w.put("a", "r\(i)", ["i": .int64(Int64(i))]) }
        let small = RefusingModifyCloud(base: w.world.cloud) { r, _ in
            r.saves.count + r.deletes.count > 7 ? CloudError(.limitExceeded, "too many") : nil
        }
        let report = try w.synchronizer("a", cloud: small, batchSize: 40).sync()
        #expect(report.savedRecords == 40)
        #expect(small.refused > 0)
        try w.sync("b")
        #expect(try w.contents("b").count == 40)
    }

    @Test func zoneDeletedByTheUserIsRecreatedAndReuploaded() throws {
        let w = try SyncWorld()
        for i in 0..<5 { try w.put("a", "r\(i)", ["i": .int64(Int64(i))]) }
        try w.sync("a")
        let request = try w.world.request(device: "a")
        try w.world.cloud.deleteZones([LocalStoreDefaults.zoneName], purge: true, in: request)
        try w.put("a", "r0", ["i": .int64(100)])
        let report = try w.sync("a")
        #expect(report.recreatedZones == [LocalStoreDefaults.zoneName])
        try w.sync("b")
        let b = try w.contents("b")
        #expect(b.count == 5)
        #expect(b["r0"] == ["i": .int64(100)])
    }

    /// A zone deleted on purpose elsewhere (not purged) stays deleted (issue 27): a device with
    /// nothing unpushed in it drops it too instead of re-creating it.
    @Test func zoneDeletedOnPurposeElsewhereIsDroppedHereToo() throws {
        let w = try SyncWorld()
        try w.put("a", "gone", ["v": .int64(1)])
        try w.sync("a"); try w.sync("b")
        try w.world.cloud.deleteZones([LocalStoreDefaults.zoneName], purge: false, in: try w.world.request(device: "a"))
        let report = try w.sync("b")
        #expect(try w.contents("b")["gone"] == nil)
        #expect(report.droppedZones == [LocalStoreDefaults.zoneName])
        #expect(report.recreatedZones.isEmpty)
        try w.sync("c")
        #expect(try w.contents("c")["gone"] == nil, "the delete stuck")
    }

    /// The exception: a device with unpushed edits of that zone keeps them and re-creates it.
    @Test func zoneDeletedElsewhereWithEditsPendingHereIsRecreated() throws {
        let w = try SyncWorld()
        try w.put("a", "keep", ["v": .int64(1)])
        try w.sync("a"); try w.sync("b")
        try w.world.cloud.deleteZones([LocalStoreDefaults.zoneName], purge: false, in: try w.world.request(device: "a"))
        try w.put("b", "keep", ["v": .int64(2)])
        let report = try w.sync("b")
        #expect(try w.contents("b")["keep"] == ["v": .int64(2)])
        #expect(report.droppedZones.isEmpty, "kept: it held an unpushed edit")
        #expect(report.recreatedZones == [LocalStoreDefaults.zoneName], "and named")
        try w.sync("c")
        #expect(try w.contents("c")["keep"] == ["v": .int64(2)])
    }

    @Test func editOfARecordDeletedInTheCloudIsKept() throws {
        let w = try SyncWorld()
        try w.put("a", "n", ["v": .int64(1)])
        try w.sync("a"); try w.sync("b")
        try w.delete("a", "n")
        try w.sync("a")
        try w.put("b", "n", ["v": .int64(2)])
        let report = try w.sync("b")
        #expect(report.conflicts.first?.resolution.contains("deletion") == true)
        try w.sync("a")
        #expect(try w.contents("a")["n"] == ["v": .int64(2)])
    }

    @Test func changeTokenExpiredRefetchesTheZone() throws {
        let w = try SyncWorld()
        try w.put("a", "n", ["v": .int64(1)])
        try w.sync("a"); try w.sync("b")
        // Garbage in the stored zone token: the cloud says expired/malformed; a stale one expires.
        let store = try w.store("b")
        let scope = CacheScope(container: w.container, scope: .private, cursor: .localStore)
        let zoneID = try w.world.request(device: "b").zoneID(LocalStoreDefaults.zoneName)
        let stale = ServerChangeToken(rawValue: ChangeTokenCodec.encode(TokenPayload(kind: .zone, epoch: 1, scopeID: 1, sequence: 1)))
        try store.apply(CachePage(zoneID: zoneID, changed: [], deleted: [], token: stale), scope, now: 0)
        try store.setDatabaseToken(nil, scope, now: 0)
        try w.put("a", "n", ["v": .int64(2)])
        try w.sync("a")
        try w.sync("b")
        #expect(try w.contents("b")["n"] == ["v": .int64(2)])
    }

    @Test func permanentItemFailureIsReportedAndStaysPending() throws {
        let w = try SyncWorld()
        try w.put("a", "n", ["count": .int64(1)])
        try w.sync("a")
        // Another device's record made the cloud schema say count is INT64; b's new record has a STRING count.
        try w.put("b", "m", ["count": .string("one")])
        let report = try w.sync("b")
        #expect(report.failures.count == 1)
        #expect(report.failures.values.first?.code == .invalidArguments)
        #expect(try w.store("b").pendingCount(container: w.container) == 1)
        #expect(try w.store("b").conflicts(container: w.container, unresolvedOnly: true).count == 1)
    }

    @Test func assetsTravelByChecksumUnlessForcedInline() throws {
        let w = try SyncWorld()
        let blob = (0..<5000).map { UInt8($0 % 251) }
        try w.put("a", "file", ["data": .bytes(blob)])
        try w.sync("a")
        let cloudRecord = try w.world.cloud.fetchRecords([RecordID(recordName: "file", zoneID: try w.world.request(device: "a").zoneID(LocalStoreDefaults.zoneName))],
                                                          in: try w.world.request(device: "a")).values.first?.get()
        guard case .asset(let reference)? = cloudRecord?.fields["data"] else { Issue.record("not an asset in the cloud"); return }
        #expect(reference.size == 5000)
        try w.sync("b")
        #expect(try w.contents("b")["file"]?["data"] == .bytes(blob))
        // Forced inline: a record over 1 MB is refused with a clear error and stays pending.
        try w.put("a", "big", ["data": .bytes([UInt8](repeating: 1, count: 1_200_000))], type: "Blob")
        var options = SyncOptions()
        options.batchSize = 400
        let inline = Synchronizer(cloud: w.world.cloud, store: try w.store("a"), request: try w.world.request(device: "a"),
                                  adapter: GenericStoreAdapter(forceData: true), options: options)
        let report = try inline.sync()
        #expect(report.failures.values.first?.code == .limitExceeded)
        #expect(report.failures.values.first?.reason.contains("1 MB") == true)
    }
}

/// Refuses a modify call when `refusal` (given the call and its 1-based number) returns an
/// error, as a server might: too large a batch, a network gone away.
final class RefusingModifyCloud: ForwardingCloud, @unchecked Sendable {
    let refusal: (ModifyRequest, Int) -> CloudError?
    var calls = 0
    var refused = 0
    init(base: any CloudService, refusal: @escaping (ModifyRequest, Int) -> CloudError?) {
        self.refusal = refusal
        super.init(base: base)
    }
    override func modifyRecords(_ r: ModifyRequest, in d: DatabaseRequest) throws(CloudError) -> ModifyResult {
        calls += 1
        if let error = refusal(r, calls) { refused += 1; throw error }
        return try base.modifyRecords(r, in: d)
    }
}

/// A model rule for tests: the `n` field of `Counter` records never goes back.
struct MaxCounterRule: ModelAdapter {
    var zoneName: String { LocalStoreDefaults.zoneName }
    func handles(recordType: String) -> Bool { recordType == "Counter" }
    func outgoingFields(_ record: LocalRecord) throws(CloudError) -> [String: FieldValue] { record.fields }
    func incomingFields(_ record: Record) throws(CloudError) -> [String: FieldValue] { record.fields }
    func forcesData(field: String, recordType: String) -> Bool { recordType == "Counter" && field == "raw" }
    func resolveConflict(recordType: String, local: MergeSide, server: MergeSide, ancestor: [String: FieldValue]?,
                         policy: MergePolicy) -> MergeOutcome? {
        guard recordType == "Counter", case .int64(let l)? = local.fields?["n"], case .int64(let s)? = server.fields?["n"] else { return nil }
        return MergeOutcome(fields: ["n": .int64(max(l, s))], resolution: "highest counter kept", contestedKeys: [])
    }
}

@Suite("Generic adapter with model rules")
struct GenericAdapterRulesTests {
    @Test func rulesOfOtherModelsApplyToTheirTypes() throws {
        let w = try SyncWorld()
        try w.put("a", "c", ["n": .int64(5)], type: "Counter")
        try w.sync("a"); try w.sync("b")
        try w.put("a", "c", ["n": .int64(9)], type: "Counter")
        try w.put("b", "c", ["n": .int64(7)], type: "Counter", now: systemClock() + 60_000)
        try w.sync("a")
        var options = SyncOptions()
        options.mergePolicy = .client
        let adapter = GenericStoreAdapter(rules: [MaxCounterRule()])
        let report = try Synchronizer(cloud: w.world.cloud, store: try w.store("b"), request: try w.world.request(device: "b"),
                                      adapter: adapter, options: options).sync()
        #expect(report.conflicts.first?.resolution == "highest counter kept")
        #expect(try w.contents("b")["c"] == ["n": .int64(9)], "the client policy alone would have lowered it to 7")
        #expect(adapter.forcesData(field: "raw", recordType: "Counter") && !adapter.forcesData(field: "raw", recordType: "Note"))
    }
}
