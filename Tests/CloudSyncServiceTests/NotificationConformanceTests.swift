import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// Which changes reach which device. Alice has a laptop and a phone; the phone subscribes (and
/// so registers), the laptop makes changes.
@Suite("Notifications (conformance)")
struct NotificationConformanceTests {
    typealias S = SubscriptionConformanceTests

    struct World {
        let f: CloudFixture
        let laptop: DatabaseRequest
        let phone: DatabaseRequest

        init(_ backend: CloudBackend) throws {
            f = try backend.make()
            laptop = try f.request("alice", device: "laptop")
            phone = try f.request("alice", device: "phone")
            _ = try f.cloud.saveZones([ZoneSpec(name: "Notes"), ZoneSpec(name: "Other")], in: laptop)
        }

        var cloud: any CloudService { f.cloud }

        func subscribe(_ subscriptions: [Subscription], as request: DatabaseRequest? = nil) throws {
            _ = try cloud.saveSubscriptions(subscriptions, in: request ?? phone)
        }

        func take(_ request: DatabaseRequest, limit: Int = 1000) throws -> [CloudNotification] {
            try cloud.takeNotifications(for: DeviceAddress(request), limit: limit)
        }

        @discardableResult
        func save(_ name: String, zone: String = "Notes", type: String = "Note", _ fields: [String: FieldValue] = [:],
                  as request: DatabaseRequest? = nil) throws -> Record {
            let r = request ?? laptop
            return try f.save([f.record(name, zone: zone, r, type: type, fields: fields)], r, policy: .allKeys)[0]
        }

        func delete(_ name: String, zone: String = "Notes", as request: DatabaseRequest? = nil) throws {
            let r = request ?? laptop
            let result = try cloud.modifyRecords(ModifyRequest(deletes: [RecordID(recordName: name, zoneID: r.zoneID(zone))]), in: r)
            if let failure = result.partialFailure { throw failure }
        }
    }

    @Test(arguments: CloudBackend.allCases)
    func databaseSubscriptionReachesEveryOtherRegisteredDevice(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([S.database("private-changes")])
        try w.save("a")
        let got = try w.take(w.phone)
        #expect(got.count == 1)
        let n = try #require(got.first)
        #expect(n.kind == .database && n.subscriptionID == "private-changes" && n.databaseScope == .private)
        #expect(n.isSilent && n.recordID == nil && n.containerIdentifier == w.f.container)
        #expect(try w.take(w.laptop).isEmpty, "the laptop is not registered")
        #expect(try w.take(w.phone).isEmpty, "reading acknowledged it")

        // Registered devices all receive, except the one that made the change.
        try w.cloud.registerDevice(DeviceAddress(w.laptop))
        let tablet = try w.f.request("alice", device: "tablet")
        try w.cloud.registerDevice(DeviceAddress(tablet))
        try w.save("b", as: w.phone)
        #expect(try w.take(w.phone).isEmpty, "the originating device gets no notification")
        #expect(try w.take(w.laptop).count == 1)
        #expect(try w.take(tablet).count == 1)
    }

    @Test(arguments: CloudBackend.allCases)
    func otherAccountsAndOtherDatabasesDoNotFire(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([S.database("private-changes")])
        let bob = try w.f.request("bob", device: "laptop")
        _ = try w.cloud.saveZones([ZoneSpec(name: "Notes")], in: bob)
        try w.save("b1", as: bob)
        try w.save("p1", zone: "_defaultZone", as: try w.f.request("alice", .public, device: "laptop"))
        #expect(try w.take(w.phone).isEmpty, "Bob's database and the public database are not Alice's private database")
        // A change in the _defaultZone of her private database does fire.
        try w.save("d1", zone: "_defaultZone")
        #expect(try w.take(w.phone).count == 1)
    }

    @Test(arguments: CloudBackend.allCases)
    func zoneSubscriptionFiresForItsZoneOnly(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([Subscription(subscriptionID: "notes", kind: .recordZone(zoneName: "Notes"))])
        try w.save("x", zone: "Other")
        try w.save("y", zone: "_defaultZone")
        #expect(try w.take(w.phone).isEmpty)
        try w.save("a", zone: "Notes")
        let n = try #require(try w.take(w.phone).first)
        #expect(n.kind == .recordZone && n.subscriptionID == "notes")
        #expect(n.zoneID == w.phone.zoneID("Notes"))
        try w.delete("a")
        #expect(try w.take(w.phone).count == 1, "deletions fire too")
    }

    @Test(arguments: CloudBackend.allCases)
    func querySubscriptionFiresForMatchingChangesWithReasonAndDesiredKeys(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([try S.query("urgent", "Note", "priority >= %@", args: ["3"], keys: ["title", "priority", "missing"])])
        try w.save("low", ["priority": .int64(1), "title": .string("later")])
        try w.save("task", type: "Task", ["priority": .int64(9)])
        #expect(try w.take(w.phone).isEmpty, "predicate false, other record type")

        try w.save("hot", ["priority": .int64(5), "title": .string("now"), "body": .string("not desired")])
        var got = try w.take(w.phone)
        #expect(got.count == 1)
        let created = try #require(got.first)
        #expect(created.kind == .query && created.reason == .recordCreated && created.subscriptionID == "urgent")
        #expect(created.recordID == RecordID(recordName: "hot", zoneID: w.phone.zoneID("Notes")))
        #expect(created.recordType == "Note")
        #expect(created.recordFields == ["title": .string("now"), "priority": .int64(5)])

        try w.save("hot", ["priority": .int64(7), "title": .string("now!")])
        try w.save("low", ["priority": .int64(4)])
        got = try w.take(w.phone)
        #expect(got.map(\.reason) == [.recordUpdated, .recordUpdated], "an update that makes a record match fires update")
        #expect(got.map { $0.recordID?.recordName } == ["hot", "low"])

        try w.save("low", ["priority": .int64(0)])
        #expect(try w.take(w.phone).isEmpty, "no longer matching: no update notification")
        try w.delete("low")
        #expect(try w.take(w.phone).isEmpty, "the deleted record did not match")
        try w.delete("hot")
        let deleted = try #require(try w.take(w.phone).first)
        #expect(deleted.reason == .recordDeleted)
        #expect(deleted.recordFields["title"] == .string("now!"), "desired keys of a deletion are the record as it was")

        // Re-creating a deleted record is a creation again.
        try w.save("hot", ["priority": .int64(8)])
        #expect(try w.take(w.phone).first?.reason == .recordCreated)
    }

    @Test(arguments: CloudBackend.allCases)
    func firesOnSelectsEventsAndZoneLimitsQueries(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([try S.query("created", firesOn: [.create]),
                         try S.query("deleted-in-notes", zone: "Notes", firesOn: [.delete]),
                         try S.query("typed", "Note", "title == %@", args: ["42"], firesOn: [.update])])
        try w.save("a", ["title": .string("42")])
        try w.save("b", zone: "Other")
        try w.save("a", ["title": .string("42")])
        try w.delete("b", zone: "Other")
        try w.delete("a")
        let got = try w.take(w.phone)
        #expect(got.map { "\($0.subscriptionID ?? "")/\($0.recordID?.recordName ?? "")" }
                == ["created/a", "created/b", "typed/a", "deleted-in-notes/a"])
    }

    @Test(arguments: CloudBackend.allCases)
    func firesOnceDeletesItselfAfterFiring(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([try S.query("first-shipped", "Order", "status == 'shipped'", once: true), S.database("db")])
        try w.save("o1", type: "Order", ["status": .string("open")])
        #expect(try w.cloud.fetchAllSubscriptions(in: w.phone).count == 2, "not fired yet")
        // Two matching records in one call: it fires once.
        _ = try w.f.save([w.f.record("o2", zone: "Notes", w.laptop, type: "Order", fields: ["status": .string("shipped")]),
                          w.f.record("o3", zone: "Notes", w.laptop, type: "Order", fields: ["status": .string("shipped")])], w.laptop)
        let got = try w.take(w.phone).filter { $0.kind == .query }
        #expect(got.map { $0.recordID?.recordName } == ["o2"])
        #expect(try w.cloud.fetchAllSubscriptions(in: w.phone).map(\.subscriptionID) == ["db"])
        try w.save("o4", type: "Order", ["status": .string("shipped")])
        #expect(try w.take(w.phone).allSatisfy { $0.kind == .database })
    }

    @Test(arguments: CloudBackend.allCases)
    func databaseAndZoneNotificationsCoalesceWhileUnreadUnderABurst(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([S.database("db"), Subscription(subscriptionID: "notes", kind: .recordZone(zoneName: "Notes")),
                         try S.query("q", "Note", "n >= 995")])
        for i in 0..<1000 {
            try w.save("r\(i % 50)", zone: i % 2 == 0 ? "Notes" : "Other", ["n": .int64(Int64(i))])
        }
        var got = try w.take(w.phone)
        #expect(got.filter { $0.kind == .database }.count == 1)
        #expect(got.filter { $0.kind == .recordZone }.count == 1)
        #expect(got.filter { $0.kind == .query }.map { $0.recordID?.recordName } == ["r45", "r46", "r47", "r48", "r49"],
                "query notifications do not coalesce: one per matching change (n = 995…999)")
        // Once read, the next change makes a new one.
        try w.save("after", zone: "Other")
        got = try w.take(w.phone)
        #expect(got.map(\.kind) == [.database])
    }

    @Test(arguments: CloudBackend.allCases)
    func notificationsAreDeliveredInOrderAndSurviveARestart(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([try S.query("all")])
        for i in 0..<5 { try w.save("r\(i)") }
        let reopened = try backend.reopen(w.f)
        let first = try reopened.takeNotifications(for: DeviceAddress(w.phone), limit: 2)
        #expect(first.map { $0.recordID?.recordName } == ["r0", "r1"])
        let rest = try reopened.takeNotifications(for: DeviceAddress(w.phone), limit: 10)
        #expect(rest.map { $0.recordID?.recordName } == ["r2", "r3", "r4"])
        let ids = (first + rest).compactMap { Int($0.notificationID) }
        #expect(ids == ids.sorted() && Set(ids).count == 5)
        #expect(try w.take(w.phone).isEmpty)
        #expect(cloudError { _ = try w.cloud.takeNotifications(for: DeviceAddress(w.phone), limit: 0) }?.code == .invalidArguments)
    }

    @Test(arguments: CloudBackend.allCases)
    func zoneCreationAndDeletion(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([S.database("db"), Subscription(subscriptionID: "notes", kind: .recordZone(zoneName: "Notes")),
                         try S.query("in-notes", zone: "Notes"), try S.query("anywhere")])
        _ = try w.cloud.saveZones([ZoneSpec(name: "New")], in: w.laptop)
        #expect(try w.take(w.phone).map(\.kind) == [.database], "a new zone is a database change")
        try w.save("a")
        _ = try w.take(w.phone)
        try w.cloud.deleteZones(["Notes"], purge: true, in: w.laptop)
        let got = try w.take(w.phone)
        #expect(got.map(\.kind) == [.database, .recordZone], "zone deletion fires the database and the zone subscription")
        #expect(got.allSatisfy { $0.kind != .query }, "no per-record query notifications for a deleted zone")
        #expect(try w.cloud.fetchAllSubscriptions(in: w.phone).map(\.subscriptionID) == ["anywhere", "db"],
                "the zone's subscriptions went with it")
    }

    @Test(arguments: CloudBackend.allCases)
    func aFailedAtomicCallEnqueuesNothing(_ backend: CloudBackend) throws {
        let w = try World(backend)
        _ = try w.cloud.saveZones([ZoneSpec(name: "Atomic", atomic: true)], in: w.laptop)
        try w.subscribe([S.database("db"), try S.query("q")])
        let existing = try w.save("x", zone: "Atomic")
        _ = try w.take(w.phone)
        var stale = existing
        stale.system?.changeTag = "stale"
        let result = try w.cloud.modifyRecords(ModifyRequest(saves: [w.f.record("new", zone: "Atomic", w.laptop), stale]), in: w.laptop)
        #expect(!result.errors.isEmpty)
        #expect(try w.take(w.phone).isEmpty)
    }

    @Test(arguments: CloudBackend.allCases)
    func publicQuerySubscriptionsReachTheirOwnersDevices(_ backend: CloudBackend) throws {
        let w = try World(backend)
        let alicePhone = try w.f.request("alice", .public, device: "phone")
        let bobLaptop = try w.f.request("bob", .public, device: "laptop")
        try w.subscribe([try S.query("posts", "Post", "topic == 'swift'", keys: ["topic"], alert: "New Swift post")], as: alicePhone)
        try w.save("p1", zone: "_defaultZone", type: "Post", ["topic": .string("rust")], as: bobLaptop)
        try w.save("p2", zone: "_defaultZone", type: "Post", ["topic": .string("swift")], as: bobLaptop)
        let got = try w.take(w.phone)
        #expect(got.count == 1)
        #expect(got.first?.databaseScope == .public && got.first?.alertBody == "New Swift post" && got.first?.isSilent == false)
        #expect(got.first?.recordID?.recordName == "p2")
        #expect(got.first?.zoneID?.ownerRecordName == ZoneID.currentUserOwner)
        // Bob's own phone (same device name, other account) is not Alice's.
        #expect(try w.take(try w.f.request("bob", device: "phone")).isEmpty)
    }

    @Test(arguments: CloudBackend.allCases)
    func unregisteringStopsDeliveryAndDropsTheQueue(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([try S.query("all")])
        try w.save("a")
        try w.cloud.unregisterDevice(DeviceAddress(w.phone))
        try w.save("b")
        #expect(try w.take(w.phone).isEmpty)
        try w.cloud.registerDevice(DeviceAddress(w.phone))
        try w.save("c")
        #expect(try w.take(w.phone).map { $0.recordID?.recordName } == ["c"])
    }

    @Test(arguments: CloudBackend.allCases)
    func notificationJSONRoundTrips(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([try S.query("q", keys: ["when"])])
        try w.save("a", ["when": .timestamp(1_700_000_000_123)])
        let n = try #require(try w.take(w.phone).first)
        let json = n.json
        #expect(json["notificationType"] == .string("query"))
        #expect(json["queryNotificationReason"] == .string("recordCreated"))
        #expect(json["recordFields"]?["when"]?["type"] == .string("TIMESTAMP"))
        #expect(try CloudNotification(json: json) == n)
    }
}
