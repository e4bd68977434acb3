import CloudSyncService
import CloudSyncCore
import Synchronization
import TestSupport
import Testing
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer

/// HTTPCloud against the handler through a real HTTP server on 127.0.0.1: a conformance subset
/// (zones, conflicts, change paging with tokens, queries, subscriptions, notifications, KV,
/// assets) and the mapping of transport failures and HTTP statuses to CloudError codes.
@Suite struct HTTPCloudTests {
    @Test func zonesOverHTTP() throws {
        let f = try WebServicesFixture()
        let (cloud, _) = try f.client()
        let alice = try f.request(cloud, "alice")
        let zones = try cloud.saveZones([ZoneSpec(name: "Art"), ZoneSpec(name: "Loose", atomic: false)], in: alice)
        #expect(zones.map(\.zoneID.zoneName) == ["Art", "Loose"])
        #expect(zones[1].capabilities == [.fetchChanges])
        #expect(try cloud.fetchAllZones(in: alice).map(\.zoneID.zoneName) == ["_defaultZone", "Art", "Loose"])
        let start = try cloud.fetchDatabaseChanges(since: nil, limit: 100, in: alice)
        #expect(Set(start.changedZones.map(\.zoneName)) == ["Art", "Loose"])
        try cloud.deleteZones(["Loose"], purge: true, in: alice)
        let after = try cloud.fetchDatabaseChanges(since: start.token, limit: 100, in: alice)
        #expect(after.deletedZones.map(\.zoneID.zoneName) == ["Loose"])
        #expect(after.deletedZones.first?.reason == .purged)
        let error = cloudError { _ = try cloud.fetchZoneChanges("Loose", since: nil, limit: 10, in: alice) }
        #expect(error?.code == .userDeletedZone)
    }

    @Test func modifyWithConflictCarriesTheServerRecord() throws {
        let f = try WebServicesFixture()
        let (cloud, server) = try f.client()
        let alice = try f.request(cloud, "alice")
        _ = try cloud.saveZones([ZoneSpec(name: "Art", atomic: false)], in: alice)
        let id = RecordID(recordName: "a", zoneID: alice.zoneID("Art"))
        let first = try cloud.modifyRecords(ModifyRequest(saves: [Record(recordID: id, recordType: "Note", fields: ["t": .string("one")])]),
                                            in: alice)
        let saved = try #require(first.saved.first)
        #expect(saved.changeTag != nil && first.errors.isEmpty)
        var stale = saved
        stale.system?.changeTag = "stale"
        stale.fields["t"] = .string("two")
        let other = Record(recordID: RecordID(recordName: "b", zoneID: alice.zoneID("Art")), recordType: "Note")
        let second = try cloud.modifyRecords(ModifyRequest(saves: [stale, other]), in: alice)
        #expect(second.saved.map(\.recordID.recordName) == ["b"])
        let conflict = try #require(second.errors[stale.recordID])
        #expect(conflict.code == .serverRecordChanged)
        #expect(conflict.serverRecord?.changeTag == saved.changeTag)
        #expect(conflict.serverRecord?.fields["t"] == .string("one"))
        let forced = try cloud.modifyRecords(ModifyRequest(saves: [stale], policy: .allKeys), in: alice)
        #expect(forced.errors.isEmpty && forced.saved.first?.fields["t"] == .string("two"))
        let fetched = try cloud.fetchRecords([id, RecordID(recordName: "zz", zoneID: alice.zoneID("Art"))], in: alice)
        #expect(try fetched[id]?.get().fields["t"] == .string("two"))
        #expect(cloudError { _ = try fetched[RecordID(recordName: "zz", zoneID: alice.zoneID("Art"))]?.get() }?.code == .unknownItem)
        let deleted = try cloud.modifyRecords(ModifyRequest(deletes: [id]), in: alice)
        #expect(deleted.deleted.map(\.recordName) == ["a"])
        #expect(server.acceptedConnections == 1, "every call reused the one connection")
    }

    @Test func batchesOverTheProtocolLimitAreSplit() throws {
        let f = try WebServicesFixture()
        let (cloud, server) = try f.client()
        let alice = try f.request(cloud, "alice")
        _ = try cloud.saveZones([ZoneSpec(name: "Big", atomic: false)], in: alice)
        let records = (0..<350).map { Record(recordID: RecordID(recordName: "r\($0)", zoneID: alice.zoneID("Big")), recordType: "T") }
        let before = server.requestCount
        let result = try cloud.modifyRecords(ModifyRequest(saves: records), in: alice)
        #expect(result.saved.count == 350 && result.errors.isEmpty)
        #expect(server.requestCount - before == 2, "350 saves go as 200 + 150")
        // Over the service's own bound (400 a call) nothing is sent: split, it would pass.
        let tooMany = (0..<401).map { Record(recordID: RecordID(recordName: "x\($0)", zoneID: alice.zoneID("Big")), recordType: "T") }
        #expect(throws: CloudError.self) { try cloud.modifyRecords(ModifyRequest(saves: tooMany), in: alice) }
        #expect(server.requestCount - before == 2)
    }

    @Test func fetchChangesPagesWithTokens() throws {
        let f = try WebServicesFixture()
        let (cloud, _) = try f.client()
        let alice = try f.request(cloud, "alice")
        _ = try cloud.saveZones([ZoneSpec(name: "Art")], in: alice)
        let records = (0..<25).map { Record(recordID: RecordID(recordName: "r\($0)", zoneID: alice.zoneID("Art")), recordType: "Note",
                                            fields: ["i": .int64(Int64($0))]) }
        _ = try cloud.modifyRecords(ModifyRequest(saves: records), in: alice)
        var token: ServerChangeToken?
        var names: [String] = []
        var pages = 0
        while true {
            let page = try cloud.fetchZoneChanges("Art", since: token, limit: 10, in: alice)
            names += page.changed.map(\.recordID.recordName)
            token = page.token
            pages += 1
            if !page.moreComing { break }
        }
        #expect(pages == 3)
        #expect(names == records.map(\.recordID.recordName))
        _ = try cloud.modifyRecords(ModifyRequest(deletes: [records[3].recordID]), in: alice)
        let tail = try cloud.fetchZoneChanges("Art", since: token, limit: 10, in: alice)
        #expect(tail.changed.isEmpty && tail.deleted.map(\.recordID.recordName) == ["r3"] && tail.deleted.first?.recordType == "Note")
        let expired = cloudError { _ = try cloud.fetchZoneChanges("Art", since: ServerChangeToken(rawValue: "bogus"), limit: 10, in: alice) }
        #expect(expired != nil)
    }

    @Test func queryOverHTTP() throws {
        let f = try WebServicesFixture()
        let (cloud, _) = try f.client()
        let alice = try f.request(cloud, "alice")
        _ = try cloud.saveZones([ZoneSpec(name: "Art")], in: alice)
        let records = (0..<6).map { Record(recordID: RecordID(recordName: "r\($0)", zoneID: alice.zoneID("Art")), recordType: "Note",
                                           fields: ["n": .int64(Int64($0)), "title": .string($0 % 2 == 0 ? "even" : "odd")]) }
        _ = try cloud.modifyRecords(ModifyRequest(saves: records), in: alice)
        let predicate = try PredicateParser.parse("n >= 1 AND title == %@", arguments: ["odd"])
        var query = RecordQuery(recordType: "Note", predicate: predicate, sort: [SortDescriptor("n", ascending: false)], zoneName: "Art", limit: 2)
        let first = try cloud.queryRecords(query, in: alice)
        #expect(first.records.map(\.recordID.recordName) == ["r5", "r3"])
        query.continuation = first.continuation
        let second = try cloud.queryRecords(query, in: alice)
        #expect(second.records.map(\.recordID.recordName) == ["r1"])
        #expect(second.continuation == nil)
        // A predicate filterBy cannot say still runs (as format text).
        let negated = RecordQuery(recordType: "Note", predicate: try PredicateParser.parse("NOT (n > 1 AND n < 5)"),
                                  sort: [SortDescriptor("n")], zoneName: "Art")
        #expect(try cloud.queryRecords(negated, in: alice).records.map(\.recordID.recordName) == ["r0", "r1", "r5"])
    }

    @Test func subscriptionsAndLongPollNotifications() throws {
        let f = try WebServicesFixture()
        let (cloud, _) = try f.client()
        let phone = try f.request(cloud, "alice", device: "phone")
        let laptop = try f.request(cloud, "alice", device: "laptop")
        _ = try cloud.saveZones([ZoneSpec(name: "Art")], in: phone)
        let saved = try cloud.saveSubscriptions([Subscription(subscriptionID: "art", kind: .recordZone(zoneName: "Art")),
                                                 Subscription(subscriptionID: "notes", kind: .query(QuerySubscription(
                                                     recordType: "Note", predicate: .comparison("n", .greater, .int64(1)),
                                                     zoneName: "Art", firesOn: [.create])))], in: phone)
        #expect(saved.map(\.subscriptionID) == ["art", "notes"])
        #expect(try cloud.fetchAllSubscriptions(in: phone).map(\.subscriptionID).sorted() == ["art", "notes"])
        let device = DeviceAddress(phone)
        try cloud.registerDevice(device)
        #expect(try cloud.takeNotifications(for: device, limit: 10).isEmpty)
        let waiter = try cloud.makeNotificationWaiter(for: device)
        _ = try cloud.modifyRecords(ModifyRequest(saves: [Record(recordID: RecordID(recordName: "x", zoneID: laptop.zoneID("Art")),
                                                                 recordType: "Note", fields: ["n": .int64(5)])]), in: laptop)
        #expect(waiter.wait(timeout: 10), "the long poll answers when the save lands")
        let got = try cloud.takeNotifications(for: device, limit: 10)
        #expect(Set(got.compactMap(\.subscriptionID)) == ["art", "notes"])
        #expect(try cloud.takeNotifications(for: device, limit: 10).isEmpty)
        try cloud.deleteSubscriptions(["art"], in: phone)
        #expect(try cloud.fetchAllSubscriptions(in: phone).map(\.subscriptionID) == ["notes"])
        #expect(cloudError { try cloud.deleteSubscriptions(["nope"], in: phone) }?.code == .unknownItem)
        try cloud.unregisterDevice(device)
    }

    @Test func aHeldLongPollDoesNotDelayOtherCalls() throws {
        let f = try WebServicesFixture()
        let (cloud, _) = try f.client()
        let phone = try f.request(cloud, "alice", device: "phone")
        _ = try cloud.saveZones([ZoneSpec(name: "Art")], in: phone)
        _ = try cloud.saveSubscriptions([Subscription(subscriptionID: "art", kind: .recordZone(zoneName: "Art"))], in: phone)
        let device = DeviceAddress(phone)
        let waiter = try cloud.makeNotificationWaiter(for: device)
        let woke = Mutex<Bool?>(nil)
        nonisolated(unsafe) let held = waiter
        spawn { let result = held.wait(timeout: 30); woke.withLock { $0 = result } }
        // While the poll is held, calls on the client's main connection still answer.
        for _ in 0..<5 { _ = try cloud.fetchAllZones(in: phone) }
        #expect(woke.withLock { $0 } == nil, "the poll is still held: the calls did not wait for it")
        let laptop = try f.request(cloud, "alice", device: "laptop")
        _ = try cloud.modifyRecords(ModifyRequest(saves: [Record(recordID: RecordID(recordName: "x", zoneID: laptop.zoneID("Art")),
                                                                 recordType: "Note")]), in: laptop)
        while woke.withLock({ $0 }) == nil { NotificationClock.sleep(0.01) }
        #expect(woke.withLock { $0 } == true)
        #expect(try cloud.takeNotifications(for: device, limit: 10).map(\.subscriptionID) == ["art"])
    }

    @Test func keyValueStoreAndAssetsOverHTTP() throws {
        let f = try WebServicesFixture()
        let (cloud, _) = try f.client()
        let alice = try f.request(cloud, "alice")
        let stored = try cloud.modifyKeyValues([KeyValueWrite(key: "icloud_sync", value: .bool(true)),
                                                KeyValueWrite(key: "blob", value: .data([1, 2, 3]))], in: alice)
        #expect(stored.count == 2)
        let all = try cloud.fetchKeyValueChanges(since: nil, in: alice)
        #expect(Set(all.items.map(\.key)) == ["icloud_sync", "blob"])
        _ = try cloud.modifyKeyValues([KeyValueWrite(key: "blob", value: nil)], in: alice)
        let delta = try cloud.fetchKeyValueChanges(since: all.token, in: alice)
        #expect(delta.items.map(\.key) == ["blob"] && delta.items.first?.value == nil)
        let huge = KeyValueWrite(key: "big", value: .data([UInt8](repeating: 7, count: KeyValueLimits.maxValueBytes + 1)))
        #expect(cloudError { _ = try cloud.modifyKeyValues([huge], in: alice) }?.code == .quotaExceeded)
        let contents: [UInt8] = Array((0..<1000).map { UInt8($0 % 251) })
        let references = try cloud.uploadAssets([contents, Array("hi".utf8)], in: alice)
        #expect(references.map(\.size) == [1000, 2])
        #expect(try cloud.fetchAsset(references[0], in: alice) == contents)
        #expect(cloudError { _ = try cloud.fetchAsset(AssetReference(checksum: "00ff", size: 3), in: alice) }?.code == .assetFileNotFound)
    }

    @Test func accountsAndCredentials() throws {
        let f = try WebServicesFixture()
        let (cloud, server) = try f.client()
        let alice = try cloud.account(named: "alice")
        #expect(alice.userRecordName == (try f.cloud.account(named: "alice")).userRecordName)
        // A client whose token is for bob but who asks to be alice: 403, exit 77.
        let mixed = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: server.baseURL, defaultContainer: f.container,
                                                                    token: { _ in "token-bob" }), session: CurlSession())
        let denied = cloudError { _ = try mixed.account(named: "alice") }
        #expect(denied?.code == .permissionFailure)
        // No token at all, or a bad one: 401.
        let anonymous = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: server.baseURL, defaultContainer: f.container,
                                                                        token: { _ in "wrong" }), session: CurlSession())
        #expect(cloudError { _ = try anonymous.account(named: "alice") }?.code == .notAuthenticated)
        // A database call before any account signed in through this client.
        let fresh = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: server.baseURL, defaultContainer: f.container), session: CurlSession())
        let request = DatabaseRequest(container: f.container, scope: .private, userRecordName: alice.userRecordName, deviceID: "d")
        #expect(cloudError { _ = try fresh.fetchAllZones(in: request) }?.code == .notAuthenticated)
        // Two accounts through one client: each acts as itself.
        let bob = try f.request(cloud, "bob")
        _ = try cloud.saveZones([ZoneSpec(name: "Bobs")], in: bob)
        #expect(try cloud.fetchAllZones(in: f.request(cloud, "alice")).map(\.zoneID.zoneName) == ["_defaultZone"])
    }

    @Test func unreachableServerIsNetworkUnavailable() throws {
        // A port that was just listening and is now closed: connection refused (the CLI's exit 69).
        let server = try LoopbackServer { _ in WebServicesResponse(status: 200) }
        let url = server.baseURL
        server.stop()
        let cloud = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: url, token: { _ in "token-alice" }, connectTimeout: 2),
                              session: CurlSession())
        let error = cloudError { _ = try cloud.account(named: "alice") }
        #expect(error?.code == .networkUnavailable)
        let unresolvable = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: "http://cloudsync-test.invalid", connectTimeout: 2),
                                     session: CurlSession())
        #expect(cloudError { _ = try unresolvable.account(named: "alice") }?.code == .networkUnavailable)
    }

    @Test func overloadAndThrottlingKeepRetryAfter() throws {
        let answers: [(Int, String, String?)] = [
            (503, #"{"serverErrorCode":"TRY_AGAIN_LATER","reason":"busy","uuid":"u"}"#, "7"),
            (429, #"{"serverErrorCode":"THROTTLED","reason":"slow down","uuid":"u"}"#, "3"),
            (503, "overloaded", "2"),
        ]
        let expected: [(CloudError.Code, Double)] = [(.zoneBusy, 7), (.requestRateLimited, 3), (.serviceUnavailable, 2)]
        for ((status, body, retry), (code, seconds)) in zip(answers, expected) {
            let server = try LoopbackServer { _ in
                WebServicesResponse(status: status, headers: retry.map { [("Retry-After", $0)] } ?? [], body: Array(body.utf8))
            }
            let cloud = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: server.baseURL), session: CurlSession())
            let error = cloudError { _ = try cloud.account(named: "alice") }
            #expect(error?.code == code, "\(status) \(body)")
            #expect(error?.retryAfter == seconds)
            #expect(error?.code.isRetryable == true)
            server.stop()
        }
    }

    @Test func retryingCloudRetriesOverloadThenSucceeds() throws {
        let f = try WebServicesFixture()
        let handler = f.handler
        let refusals = Mutex(2)
        let server = try LoopbackServer { request in
            let refuse = refusals.withLock { left in
                defer { left -= 1 }
                return left > 0
            }
            if refuse {
                return WebServicesResponse(status: 503, headers: [("Retry-After", "4")],
                                           body: Array(#"{"serverErrorCode":"SERVICE_UNAVAILABLE","reason":"overloaded","uuid":"u"}"#.utf8))
            }
            return handler.handle(request)
        }
        let slept = Mutex<[Double]>([])
        let cloud = RetryingCloud(wrapping: HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: server.baseURL,
                                                                                            token: { "token-\($0)" }),
                                                      session: CurlSession()),
                                  sleep: { seconds in slept.withLock { $0.append(seconds) } })
        #expect(try cloud.account(named: "alice").userRecordName.hasPrefix("_"))
        #expect(slept.withLock { $0 }.count == 2, "two 503s, two waits, then the call went through")
        #expect(slept.withLock { $0 }.allSatisfy { $0 >= 4 }, "each wait honours Retry-After")
        server.stop()
    }

    @Test func repliesAreBounded() throws {
        let server = try LoopbackServer { _ in
            WebServicesResponse(status: 200, body: Array(("{\"userRecordName\":\"" + String(repeating: "x", count: 100_000) + "\"}").utf8))
        }
        let cloud = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: server.baseURL, maxReplyBytes: 10_000), session: CurlSession())
        let error = cloudError { _ = try cloud.account(named: "alice") }
        #expect(error?.code == .networkFailure)
        #expect(error?.reason.contains("larger") == true)
        server.stop()
    }
}
