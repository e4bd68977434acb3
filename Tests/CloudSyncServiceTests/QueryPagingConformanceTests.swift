import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// Keyset paging (issue 28): a continuation marker holds the sort key of the last record of its
/// page, so pages never repeat or skip a record that existed throughout, whatever the sort.
@Suite("Query paging (conformance)")
struct QueryPagingConformanceTests {
    /// 40 Notes in two batches (so modificationDate ties within a batch), `bucket` = i % 4 (ties
    /// on a record field), names that sort differently from their numbers.
    func seeded(_ backend: CloudBackend) throws -> (CloudFixture, DatabaseRequest) {
        let f = try backend.make()
        let r = try f.request("alice")
        for batch in [1...20, 21...40] {
            try f.save(batch.map { i in
                f.record("p\(i)", zone: "_defaultZone", r,
                         fields: ["bucket": .int64(Int64(i % 4)), "count": .int64(Int64(i))])
            }, r)
        }
        return (f, r)
    }

    /// Every page of `query`, following markers; `between` runs after each page.
    func walk(_ f: CloudFixture, _ r: DatabaseRequest, _ query: RecordQuery,
              between: (Int) throws -> Void = { _ in }) throws -> [Record] {
        var query = query
        var records: [Record] = []
        var pages = 0
        repeat {
            let page = try f.cloud.queryRecords(query, in: r)
            #expect(page.records.count <= query.limit ?? 400)
            records += page.records
            query.continuation = page.continuation
            pages += 1
            try between(pages)
        } while query.continuation != nil && pages < 100
        return records
    }

    @Test(arguments: CloudBackend.allCases)
    func everySortWalksEveryRecordOnceInOrder(_ backend: CloudBackend) throws {
        let (f, r) = try seeded(backend)
        let all = try f.cloud.queryRecords(RecordQuery(recordType: "Note", limit: 1000), in: r).records
        #expect(all.count == 40)
        for sortText in ["bucket", "-bucket", "bucket,-count", "-modificationDate", "modificationDate",
                         "creationDate,-recordName", "-recordName", "recordName", "-bucket,modificationDate"] {
            let sort = try SortDescriptor.parseList(sortText)
            for limit in [1, 3, 7] {
                let names = try walk(f, r, RecordQuery(recordType: "Note", sort: sort, limit: limit)).map(\.recordID.recordName)
                #expect(names == sort.apply(to: all).map(\.recordID.recordName), "sort \(sortText), pages of \(limit)")
            }
        }
        // No sort: record name order, as the tie-breaker of every sort.
        let unsorted = try walk(f, r, RecordQuery(recordType: "Note", limit: 6)).map(\.recordID.recordName)
        #expect(unsorted == all.map(\.recordID.recordName).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test(arguments: CloudBackend.allCases)
    func recordsInsertedOrDeletedBetweenPagesAreNeitherRepeatedNorSkipped(_ backend: CloudBackend) throws {
        for sortText in ["", "bucket", "-count", "-modificationDate"] {
            let (f, r) = try seeded(backend)
            let sort = sortText.isEmpty ? [] : try SortDescriptor.parseList(sortText)
            var deleted: Set<String> = []
            let names = try walk(f, r, RecordQuery(recordType: "Note", sort: sort, limit: 5)) { page in
                // After each page: delete two records (one maybe already seen), add two new ones.
                let victims = ["p\(page * 3)", "p\(41 - page * 2)"].filter { !deleted.contains($0) }
                if !victims.isEmpty {
                    let result = try f.cloud.modifyRecords(ModifyRequest(deletes: victims.map { RecordID(recordName: $0, zoneID: r.zoneID("_defaultZone")) }), in: r)
                    if let failure = result.partialFailure { throw failure }
                    deleted.formUnion(victims)
                }
                try f.save([f.record("new\(page)a", zone: "_defaultZone", r, fields: ["bucket": .int64(0), "count": .int64(0)]),
                            f.record("new\(page)b", zone: "_defaultZone", r, fields: ["bucket": .int64(3), "count": .int64(99)])], r)
            }.map(\.recordID.recordName)
            #expect(Set(names).count == names.count, "no record twice (sort '\(sortText)')")
            let throughout = (1...40).map { "p\($0)" }.filter { !deleted.contains($0) }
            #expect(Set(throughout).isSubset(of: Set(names)), "every record that existed throughout (sort '\(sortText)')")
        }
    }

    @Test(arguments: CloudBackend.allCases)
    func damagedForeignAndOldMarkersAreRefused(_ backend: CloudBackend) throws {
        let (f, r) = try seeded(backend)
        let query = RecordQuery(recordType: "Note", sort: try SortDescriptor.parseList("bucket"), limit: 5)
        let marker = try #require(try f.cloud.queryRecords(query, in: r).continuation)
        func refusal(_ marker: String, sort: String = "bucket") -> CloudError? {
            cloudError {
                _ = try f.cloud.queryRecords(RecordQuery(recordType: "Note", sort: try SortDescriptor.parseList(sort), limit: 5,
                                                         continuation: marker), in: r)
            }
        }
        // One character changed anywhere: the checksum no longer matches.
        for index in [3, marker.count / 2, marker.count - 2] {
            var characters = Array(marker)
            characters[index] = characters[index] == "A" ? "B" : "A"
            let error = refusal(String(characters))
            #expect(error?.code == .invalidArguments)
            #expect(error?.reason.contains("continuation marker") == true)
        }
        // A marker of another query.
        #expect(refusal(marker, sort: "-bucket")?.reason.contains("another query") == true)
        // An offset marker of the older format (version 1, kind query, 26 bytes).
        let old = ChangeTokenCodec.encode(TokenPayload(kind: .query, epoch: 1, scopeID: 1, sequence: 5))
        let oldError = refusal(old)
        #expect(oldError?.code == .invalidArguments)
        #expect(oldError?.reason.contains("older server") == true)
        // A change token is not a marker.
        let token = ChangeTokenCodec.encode(TokenPayload(kind: .zone, epoch: 1, scopeID: 1, sequence: 5))
        #expect(refusal(token)?.reason.contains("change token") == true)
    }
}
