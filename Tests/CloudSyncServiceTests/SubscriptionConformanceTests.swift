import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

@Suite("Subscriptions (conformance)")
struct SubscriptionConformanceTests {
    static func database(_ id: String) -> Subscription { Subscription(subscriptionID: id, kind: .database) }

    static func query(_ id: String, _ type: String = "Note", _ predicate: String = "TRUEPREDICATE", args: [String] = [],
                      zone: String? = nil, firesOn: QueryFiresOn = .all, once: Bool = false,
                      keys: [String] = [], alert: String? = nil) throws -> Subscription {
        Subscription(subscriptionID: id,
                     kind: .query(QuerySubscription(recordType: type, predicate: try PredicateParser.parse(predicate, arguments: args),
                                                    zoneName: zone, firesOn: firesOn, firesOnce: once)),
                     notificationInfo: NotificationInfo(alertBody: alert, desiredKeys: keys))
    }

    @Test(arguments: CloudBackend.allCases)
    func savedSubscriptionsAreListedReplacedAndDeleted(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Notes")], in: r)
        let saved = try f.cloud.saveSubscriptions([Self.database("private-changes"),
                                                   Subscription(subscriptionID: "notes", kind: .recordZone(zoneName: "Notes")),
                                                   try Self.query("urgent", "Note", "priority > %@", args: ["3"], keys: ["title"],
                                                                  alert: "Urgent note")], in: r)
        #expect(saved.count == 3)
        #expect(saved.allSatisfy { $0.creationDate != nil && $0.creationDate == $0.modificationDate })
        var listed = try f.cloud.fetchAllSubscriptions(in: r)
        #expect(listed.map(\.subscriptionID) == ["notes", "private-changes", "urgent"])
        #expect(listed[0].kind == .recordZone(zoneName: "Notes"))
        #expect(listed[2].query?.predicate == .comparison("priority", .greater, .argument("3")), "the %@ argument keeps its text")
        #expect(listed[2].notificationInfo == NotificationInfo(alertBody: "Urgent note", desiredKeys: ["title"]))
        #expect(listed[2].query?.firesOn == .all)

        // Saving an existing ID replaces it and keeps its creation date.
        let replaced = try f.cloud.saveSubscriptions([try Self.query("urgent", "Task", firesOn: [.create], once: true)], in: r)[0]
        listed = try f.cloud.fetchAllSubscriptions(in: r)
        #expect(listed.count == 3)
        #expect(listed[2].query?.recordType == "Task" && listed[2].query?.firesOnce == true)
        #expect(replaced.creationDate == saved[2].creationDate)
        #expect(try #require(replaced.modificationDate) > (saved[2].modificationDate ?? 0))

        // An unknown ID fails the whole delete.
        let unknown = cloudError { try f.cloud.deleteSubscriptions(["notes", "nope"], in: r) }
        #expect(unknown?.code == .unknownItem)
        #expect(unknown?.reason.contains("'nope'") == true)
        #expect(try f.cloud.fetchAllSubscriptions(in: r).count == 3, "nothing was deleted")
        try f.cloud.deleteSubscriptions(["notes", "urgent", "notes"], in: r)
        #expect(try f.cloud.fetchAllSubscriptions(in: r).map(\.subscriptionID) == ["private-changes"])
        #expect(cloudError { try f.cloud.deleteSubscriptions(["notes"], in: r) }?.code == .unknownItem)
    }

    @Test(arguments: CloudBackend.allCases)
    func subscriptionsBelongToTheirAccountAndDatabase(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let alice = try f.request("alice")
        let bob = try f.request("bob")
        _ = try f.cloud.saveSubscriptions([Self.database("changes")], in: alice)
        #expect(try f.cloud.fetchAllSubscriptions(in: bob).isEmpty)
        #expect(try f.cloud.fetchAllSubscriptions(in: try f.request("alice", .shared)).isEmpty)
        #expect(cloudError { try f.cloud.deleteSubscriptions(["changes"], in: bob) }?.code == .unknownItem)
        // In the public database, each user sees only their own query subscriptions.
        let alicePublic = try f.request("alice", .public)
        let bobPublic = try f.request("bob", .public)
        _ = try f.cloud.saveSubscriptions([try Self.query("posts", "Post")], in: alicePublic)
        _ = try f.cloud.saveSubscriptions([try Self.query("posts", "Post", "TRUEPREDICATE", firesOn: [.delete])], in: bobPublic)
        #expect(try f.cloud.fetchAllSubscriptions(in: alicePublic).map { $0.query?.firesOn } == [.all])
        #expect(try f.cloud.fetchAllSubscriptions(in: bobPublic).map { $0.query?.firesOn } == [[.delete]])
        #expect(try f.cloud.fetchAllSubscriptions(in: alice).map(\.subscriptionID) == ["changes"])
    }

    @Test(arguments: CloudBackend.allCases)
    func theCloudEnforcesTheRules(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        let publicDB = try f.request("alice", .public)
        func code(_ subscription: Subscription, _ request: DatabaseRequest) -> CloudError.Code? {
            cloudError { _ = try f.cloud.saveSubscriptions([subscription], in: request) }?.code
        }
        #expect(code(Self.database("db"), publicDB) == .invalidArguments)
        #expect(code(Subscription(subscriptionID: "z", kind: .recordZone(zoneName: "Notes")), publicDB) == .invalidArguments)
        #expect(code(Subscription(subscriptionID: "z", kind: .recordZone(zoneName: "_defaultZone")), r) == .invalidArguments)
        #expect(code(Subscription(subscriptionID: "z", kind: .recordZone(zoneName: "Missing")), r) == .zoneNotFound)
        #expect(code(try Self.query("q", zone: "Missing"), r) == .zoneNotFound)
        #expect(code(try Self.query("q", zone: "Notes"), publicDB) == .invalidArguments)
        #expect(code(try Self.query("q", keys: ["a", "b", "c", "d"]), r) == .limitExceeded)
        #expect(code(try Self.query("q", keys: ["a", "a"]), r) == .invalidArguments)
        #expect(code(try Self.query("q", keys: ["not a field"]), r) == .invalidArguments)
        #expect(code(try Self.query("q", firesOn: []), r) == .invalidArguments)
        #expect(code(try Self.query("q", "bad type"), r) == .invalidArguments)
        #expect(code(try Self.query("q", alert: ""), r) == .invalidArguments)
        #expect(code(Subscription(subscriptionID: "db", kind: .database, notificationInfo: NotificationInfo(alertBody: "Hi")), r)
                == .invalidArguments)
        #expect(code(Subscription(subscriptionID: "db", kind: .database, notificationInfo: NotificationInfo(desiredKeys: ["title"])), r)
                == .invalidArguments)
        for id in ["", " padded", "tab\there", String(repeating: "x", count: 256)] {
            #expect(code(Self.database(id), r) == .invalidArguments, "\(id)")
        }
        #expect(cloudError { _ = try f.cloud.saveSubscriptions([Self.database("x"), Self.database("x")], in: r) }?.code
                == .invalidArguments)
        // Query subscriptions are the one kind the public database takes; three desired keys are fine.
        #expect(try f.cloud.saveSubscriptions([try Self.query("q", keys: ["a", "b", "c"])], in: publicDB).count == 1)
        // A zone the user deleted in iCloud settings is userDeletedZone.
        _ = try f.cloud.saveZones([ZoneSpec(name: "Gone")], in: r)
        try f.cloud.deleteZones(["Gone"], purge: true, in: r)
        #expect(code(Subscription(subscriptionID: "z", kind: .recordZone(zoneName: "Gone")), r) == .userDeletedZone)
        #expect(try f.cloud.fetchAllSubscriptions(in: r).isEmpty, "nothing was saved by the refused calls")
    }

    @Test func firesOnParsing() throws {
        #expect(try QueryFiresOn(parsing: "create,update,delete") == .all)
        #expect(try QueryFiresOn(parsing: "Create, DELETE") == [.create, .delete])
        #expect(try QueryFiresOn(parsing: "recordUpdate") == [.update])
        #expect(try QueryFiresOn(parsing: "all") == .all)
        for bad in ["", "create,", ",", "created,moved", "insert"] {
            #expect(throws: CloudError.self, "\(bad)") { _ = try QueryFiresOn(parsing: bad) }
        }
        #expect(QueryFiresOn([.delete, .create]).names == ["create", "delete"])
    }

    @Test func subscriptionJSONLooksLikeWebServices() throws {
        let query = try Self.query("urgent", "Note", "priority > 3 AND tags CONTAINS 'work'", zone: "Notes",
                                   firesOn: [.create, .update], once: true, keys: ["title"])
        let json = query.json(scope: .private, zoneOwner: "_owner")
        #expect(json["subscriptionType"] == .string("query"))
        #expect(json["query"]?["predicate"] == .string("priority > 3 AND tags CONTAINS \"work\""))
        #expect(json["firesOn"] == .array([.string("create"), .string("update")]))
        #expect(json["firesOnce"] == .bool(true))
        #expect(json["zoneID"]?["zoneName"] == .string("Notes"))
        #expect(json["notificationInfo"]?["shouldSendContentAvailable"] == .bool(true))
        #expect(json["notificationInfo"]?["desiredKeys"] == .array([.string("title")]))
        #expect(Self.database("d").json()["subscriptionType"] == .string("database"))
    }
}
