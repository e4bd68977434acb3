import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// The backend-neutral rules (`ServiceRules`) hold on every backend (issue 17, items 2, 5, 6, 7).
@Suite("Service rules (conformance)")
struct ServiceRulesConformanceTests {
    static func deepNots(_ levels: Int) -> Predicate {
        var predicate = Predicate.comparison("a", .equal, .int64(1))
        for _ in 0..<levels { predicate = .not(predicate) }
        return predicate
    }

    @Test(arguments: CloudBackend.allCases)
    func reservedFieldNamesAreRefusedOnSave(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        for (field, value) in [("recordName", FieldValue.string("x")), ("creationDate", .timestamp(1)),
                               ("modificationDate", .int64(1)), ("CD_editedAt", .string("yesterday"))] {
            let result = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("n1", zone: "_defaultZone", r,
                                                                                   fields: [field: value])]), in: r)
            let error = try #require(result.errors.values.first, "\(field) was accepted")
            #expect(error.code == .invalidArguments)
            #expect(error.reason.contains("'\(field)'"))
        }
        // Nothing was stored, not even the schema of a refused field.
        let id = f.record("n1", zone: "_defaultZone", r).recordID
        #expect(throws: CloudError.self) { try f.cloud.fetchRecords([id], in: r)[id]?.get() }
        // The sync engine's edit time, with its type, is a field like any other.
        let saved = try f.save([f.record("n2", zone: "_defaultZone", r, fields: ["CD_editedAt": .timestamp(5), "t": .string("x")])], r)
        #expect(saved[0].fields["CD_editedAt"] == .timestamp(5))
    }

    @Test(arguments: CloudBackend.allCases)
    func recordsOverTheSizeLimitAreRefusedWithTheSharedLimit(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        let overhead = "n1".utf8.count + "Note".utf8.count + "s".utf8.count
        let fits = f.record("n1", zone: "_defaultZone", r, fields: ["s": .string(String(repeating: "x", count: CloudLimits.maxRecordSize - overhead))])
        #expect(fits.estimatedSize == CloudLimits.maxRecordSize)
        try f.save([fits], r)
        let over = f.record("n2", zone: "_defaultZone", r, fields: ["s": .string(String(repeating: "x", count: CloudLimits.maxRecordSize - overhead + 1))])
        let result = try f.cloud.modifyRecords(ModifyRequest(saves: [over]), in: r)
        #expect(result.errors.values.first?.code == .limitExceeded)
        #expect(cloudError { try ServiceRules.validateSize(over) }?.code == .limitExceeded)
        #expect(cloudError { try ServiceRules.validateSize(fits) } == nil)
    }

    @Test(arguments: CloudBackend.allCases)
    func deepPredicatesAreRefusedByQueriesAndSubscriptions(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice", .public)
        let deep = Self.deepNots(Predicate.maxNestingDepth + 1)
        let query = cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "Post", predicate: deep), in: r) }
        #expect(query?.code == .invalidArguments)
        let subscription = Subscription(subscriptionID: "deep", kind: .query(QuerySubscription(recordType: "Post", predicate: deep)))
        let saved = cloudError { _ = try f.cloud.saveSubscriptions([subscription], in: r) }
        #expect(saved?.code == .invalidArguments)
        #expect(saved?.reason.contains("101 levels") == true)
        #expect(try f.cloud.fetchAllSubscriptions(in: r).isEmpty)
        // At the bound: stored, read back and evaluated on every save.
        let atBound = Subscription(subscriptionID: "ok", kind: .query(QuerySubscription(
            recordType: "Post", predicate: Self.deepNots(Predicate.maxNestingDepth))))
        _ = try f.cloud.saveSubscriptions([atBound], in: r)
        #expect(try f.cloud.fetchAllSubscriptions(in: r).first?.query?.predicate == atBound.query?.predicate)
        let bob = try f.request("bob", .public)
        try f.save([f.record("p1", zone: "_defaultZone", bob, type: "Post", fields: ["a": .int64(1)])], bob)
    }
}
