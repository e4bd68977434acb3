import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// What one account's subscriptions may cost everyone else (issue 25, items 2 and 4): the
/// production schema rules query subscriptions as it rules queries, and width, count and stored
/// size are capped, on every backend.
@Suite("Subscription bounds and the production schema (conformance)")
struct SubscriptionBoundsConformanceTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Note (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE,
                body STRING
            );
        """

    /// `title != 'v0' AND title != 'v1' …`: `count` comparisons that all hold on most records.
    static func wide(_ count: Int) -> Predicate {
        .and((0..<count).map { .comparison("title", .notEqual, .string("v\($0)")) })
    }

    func code(_ f: CloudFixture, _ subscriptions: [Subscription], _ request: DatabaseRequest) -> CloudError.Code? {
        cloudError { _ = try f.cloud.saveSubscriptions(subscriptions, in: request) }?.code
    }

    func query(_ id: String, type: String = "Note", _ predicate: Predicate) -> Subscription {
        Subscription(subscriptionID: id, kind: .query(QuerySubscription(recordType: type, predicate: predicate)))
    }

    @Test(arguments: CloudBackend.allCases)
    func productionQuerySubscriptionsObeyTheProductionSchema(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let admin = Caller.holdingStore(HTTPTestServers.adminAccount)
        let schemas = try #require(f.cloud.capabilities.schema)
        _ = try schemas.importSchema(try SchemaParser.parse(Self.schema), container: f.container, dryRun: false, by: admin)
        _ = try schemas.deploySchema(container: f.container, dryRun: false, allowWiderGrants: false, by: admin)
        for scope in [DatabaseScope.private, .public] {
            var production = try f.request("mallory", scope)
            production.environment = .production
            // Not QUERYABLE, unknown field, unknown type: refused as the same query would be.
            #expect(code(f, [query("body", .comparison("body", .equal, .string("x")))], production) == .invalidArguments, "\(scope)")
            #expect(code(f, [query("nope", .comparison("nope", .equal, .int64(1)))], production) == .invalidArguments, "\(scope)")
            #expect(code(f, [query("ghost", type: "Ghost", .truePredicate)], production) == .invalidArguments, "\(scope)")
            #expect(code(f, [query("title", .comparison("title", .equal, .string("x")))], production) == nil, "\(scope)")
            #expect(try f.cloud.fetchAllSubscriptions(in: production).map(\.subscriptionID) == ["title"], "\(scope)")
        }
        // Development grows its schema: the same subscriptions are fine there.
        let development = try f.request("mallory", .public)
        #expect(code(f, [query("nope", .comparison("nope", .equal, .int64(1)))], development) == nil)
    }

    @Test(arguments: CloudBackend.allCases)
    func oneAccountsSubscriptionsAreBoundedInWidthCountAndSize(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let publicDB = try f.request("mallory", .public)
        #expect(code(f, [query("wide", Self.wide(Predicate.maxComparisons + 1))], publicDB) == .limitExceeded)
        let manyValues = PredicateValue.list((0...Predicate.maxComparisons).map { .string("v\($0)") })
        #expect(code(f, [query("in", .comparison("title", .in, manyValues))], publicDB) == .limitExceeded,
                "an IN list counts one comparison per value")
        #expect(code(f, [query("widest", Self.wide(Predicate.maxComparisons))], publicDB) == nil)
        let bulky = PredicateValue.list((0..<300).map { _ in .string(String(repeating: "x", count: 250)) })
        #expect(code(f, [query("bulky", .comparison("title", .in, bulky))], publicDB) == .limitExceeded,
                "a subscription stored larger than \(SubscriptionLimits.maxStoredBytes) bytes")
        let more = (1..<SubscriptionLimits.maxPerAccount).map { query("s\($0)", .comparison("title", .equal, .string("\($0)"))) }
        #expect(try f.cloud.saveSubscriptions(more, in: publicDB).count == SubscriptionLimits.maxPerAccount - 1)
        #expect(code(f, [query("one-too-many", .truePredicate)], publicDB) == .limitExceeded)
        // Replacing one of the hundred adds none; another account has its own hundred.
        #expect(code(f, [query("s1", .truePredicate)], publicDB) == nil)
        #expect(code(f, [query("own", .truePredicate)], try f.request("alice", .public)) == nil)
        #expect(try f.cloud.fetchAllSubscriptions(in: publicDB).count == SubscriptionLimits.maxPerAccount)
        // Comparisons are budgeted per account too: two of the widest fill it.
        let eve = try f.request("eve", .public)
        #expect(code(f, [query("w1", Self.wide(Predicate.maxComparisons)), query("w2", Self.wide(Predicate.maxComparisons))], eve) == nil)
        #expect(code(f, [query("w3", .comparison("title", .equal, .string("x")))], eve) == .limitExceeded)
        #expect(code(f, [query("w2", Self.wide(Predicate.maxComparisons - 1)), query("w3", .comparison("title", .equal, .string("x")))], eve) == nil,
                "a replaced subscription's comparisons are given back")
    }

    @Test func aQueryIsBoundedInWidthToo() throws {
        #expect(cloudError { try ServiceRules.validatePredicate(Self.wide(Predicate.maxComparisons + 1)) }?.code == .limitExceeded)
        #expect(Self.wide(5000).comparisonCount(stoppingAfter: 10) <= 11, "counting stops past the limit")
        #expect(Predicate.and([.not(Self.wide(3)), .comparison("t", .in, .list([.int64(1), .int64(2)]))]).comparisonCount() == 5)
    }
}
