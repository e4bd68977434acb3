import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

@Suite("Queries (conformance)")
struct QueryConformanceTests {
    func seeded(_ backend: CloudBackend) throws -> (CloudFixture, DatabaseRequest) {
        let f = try backend.make()
        let r = try f.request("alice")
        var records: [Record] = []
        for i in 1...30 {
            let title: String = i % 2 == 0 ? "Even \(i)" : "Odd \(i)"
            let tags: [FieldValue] = i % 3 == 0 ? [.string("fizz")] : []
            let fields: [String: FieldValue] = ["count": .int64(Int64(i)), "title": .string(title), "tags": .list(.string, tags)]
            records.append(f.record("n\(i)", zone: "_defaultZone", r, fields: fields))
        }
        records.append(f.record("other", zone: "_defaultZone", r, type: "Task", fields: ["count": .int64(100)]))
        try f.save(records, r)
        return (f, r)
    }

    @Test(arguments: CloudBackend.allCases)
    func predicateSortAndLimit(_ backend: CloudBackend) throws {
        let (f, r) = try seeded(backend)
        let predicate = try PredicateParser.parse("count > %@ AND title BEGINSWITH %@", arguments: ["20", "Even"])
        let page = try f.cloud.queryRecords(RecordQuery(recordType: "Note", predicate: predicate,
                                                        sort: try SortDescriptor.parseList("-count"), limit: 3), in: r)
        #expect(page.records.map(\.recordID.recordName) == ["n30", "n28", "n26"])
        #expect(page.continuation != nil)
        let contains = try f.cloud.queryRecords(RecordQuery(recordType: "Note",
                                                            predicate: try PredicateParser.parse("tags CONTAINS 'fizz'"),
                                                            sort: try SortDescriptor.parseList("count"), limit: 100), in: r)
        #expect(contains.records.map(\.recordID.recordName) == ["n3", "n6", "n9", "n12", "n15", "n18", "n21", "n24", "n27", "n30"])
        #expect(contains.continuation == nil)
    }

    @Test(arguments: CloudBackend.allCases)
    func continuationWalksEveryResultOnce(_ backend: CloudBackend) throws {
        let (f, r) = try seeded(backend)
        var query = RecordQuery(recordType: "Note", sort: try SortDescriptor.parseList("count"), limit: 7)
        var names: [String] = []
        var pages = 0
        repeat {
            let page = try f.cloud.queryRecords(query, in: r)
            names += page.records.map(\.recordID.recordName)
            query.continuation = page.continuation
            pages += 1
        } while query.continuation != nil
        #expect(pages == 5)
        #expect(names == (1...30).map { "n\($0)" })
    }

    @Test(arguments: CloudBackend.allCases)
    func badQueriesAreRefused(_ backend: CloudBackend) throws {
        let (f, r) = try seeded(backend)
        #expect(cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "Note", limit: 0), in: r) }?.code == .invalidArguments)
        #expect(cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "Note", continuation: "bogus"), in: r) }?.code == .invalidArguments)
        #expect(cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "Note", zoneName: "Nope"), in: r) }?.code == .zoneNotFound)
        #expect(cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "1bad"), in: r) }?.code == .invalidArguments)
    }
}
