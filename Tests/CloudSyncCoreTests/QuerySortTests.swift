import CloudSyncCore
import Testing

@Suite("QuerySort: parsing")
struct QuerySortParsingTests {
    @Test func parsesSignsAndLists() throws {
        #expect(try SortDescriptor.parseList("count") == [SortDescriptor("count")])
        #expect(try SortDescriptor.parseList("+count") == [SortDescriptor("count", ascending: true)])
        #expect(try SortDescriptor.parseList("-count") == [SortDescriptor("count", ascending: false)])
        #expect(try SortDescriptor.parseList("-count,title") ==
            [SortDescriptor("count", ascending: false), SortDescriptor("title")])
        #expect(try SortDescriptor.parseList(" -count , +title ,modificationDate") ==
            [SortDescriptor("count", ascending: false), SortDescriptor("title"), SortDescriptor("modificationDate")])
        #expect(try SortDescriptor(parsing: "-recordName") == SortDescriptor("recordName", ascending: false))
    }

    @Test func descriptionParsesBack() throws {
        let list = [SortDescriptor("count", ascending: false), SortDescriptor("title")]
        #expect(list.map(\.description).joined(separator: ",") == "-count,title")
        #expect(try SortDescriptor.parseList(list.map(\.description).joined(separator: ",")) == list)
    }

    @Test(arguments: [
        ("", "has no field name"), ("count,,title", "has no field name"), ("-", "has no field name"),
        ("count,", "has no field name"), ("1abc", "sort field '1abc' must start with a letter"),
        ("--count", "sort field '-count' must start with a letter"), ("a b", "sort field 'a b'"),
        ("count,-count", "sort field 'count' is given twice"), ("_x", "unknown system field '_x'"),
    ])
    func errors(text: String, fragment: String) {
        let error = Fixtures.error { try SortDescriptor.parseList(text) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason.contains(fragment) == true, "\(error?.reason ?? "no error")")
    }
}

@Suite("QuerySort: ordering")
struct QuerySortOrderingTests {
    func names(_ sort: String, _ records: [Record]) throws -> [String] {
        try SortDescriptor.parseList(sort).apply(to: records).map(\.recordID.recordName)
    }

    static let counted: [Record] = [
        Fixtures.record("c", ["count": .int64(3), "title": .string("b")]),
        Fixtures.record("a", ["count": .int64(1), "title": .string("b")]),
        Fixtures.record("m", ["title": .string("a")]),
        Fixtures.record("b", ["count": .int64(2), "title": .string("a")]),
        Fixtures.record("d", ["count": .int64(2), "title": .string("a")]),
        Fixtures.record("e", ["count": .double(1.5), "title": .string("c")]),
    ]

    @Test func ascendingWithMissingLastAndTiesByRecordName() throws {
        #expect(try names("count", Self.counted) == ["a", "e", "b", "d", "c", "m"])
        #expect(try names("+count", Self.counted) == ["a", "e", "b", "d", "c", "m"])
    }

    @Test func descendingKeepsMissingLast() throws {
        #expect(try names("-count", Self.counted) == ["c", "b", "d", "e", "a", "m"])
    }

    @Test func secondKeyBreaksTies() throws {
        #expect(try names("title,-count", Self.counted) == ["b", "d", "m", "c", "a", "e"])
        #expect(try names("-title,count", Self.counted) == ["e", "a", "c", "b", "d", "m"])
    }

    @Test func emptySortIsByRecordName() {
        #expect([SortDescriptor]().apply(to: Self.counted).map(\.recordID.recordName) == ["a", "b", "c", "d", "e", "m"])
    }

    @Test func sameNameInOtherZonesIsStillDeterministic() {
        let z1 = ZoneID(zoneName: "A", ownerRecordName: "_o")
        let z2 = ZoneID(zoneName: "B", ownerRecordName: "_o")
        let z3 = ZoneID(zoneName: "B", ownerRecordName: "_p")
        let records = [z3, z1, z2].map { Record(recordID: RecordID(recordName: "x", zoneID: $0), recordType: "T") }
        #expect([SortDescriptor]().apply(to: records).map(\.recordID.zoneID) == [z1, z2, z3])
        let sort: [SortDescriptor] = []
        #expect(sort.compare(records[0], records[0]) == false)
    }

    @Test func stringsSortOrdinally() throws {
        let records = ["é", "b", "B", "a", "e\u{301}", "ab"].enumerated().map { i, title in
            Fixtures.record("r\(i)", ["title": .string(title)])
        }
        // B (0x42) < a < ab < b < e+U+0301 < é (U+00E9)
        #expect(try names("title", records) == ["r2", "r3", "r5", "r1", "r4", "r0"])
    }

    @Test func mixedNumbersCompareExactlyAndNaNComesAfterNumbers() throws {
        let records = [
            Fixtures.record("big", ["v": .int64(9_007_199_254_740_993)]),
            Fixtures.record("dbl", ["v": .double(9_007_199_254_740_992)]),
            Fixtures.record("nan", ["v": .double(.nan)]),
            Fixtures.record("neg", ["v": .double(-0.5)]),
            Fixtures.record("zero", ["v": .int64(0)]),
        ]
        #expect(try names("v", records) == ["neg", "zero", "dbl", "big", "nan"])
    }

    @Test func valuesOfDifferentTypesAreGroupedByType() throws {
        let records = [
            Fixtures.record("s", ["v": .string("1")]),
            Fixtures.record("t", ["v": .timestamp(0)]),
            Fixtures.record("n", ["v": .int64(99)]),
            Fixtures.record("l", ["v": .list(.int64, [])]),
            Fixtures.record("x", [:]),
        ]
        #expect(try names("v", records) == ["n", "t", "s", "l", "x"])
        #expect(try names("-v", records) == ["l", "s", "t", "n", "x"])
    }

    @Test func otherTypesHaveAnOrderToo() throws {
        func ref(_ name: String) -> FieldValue { .reference(Reference(recordID: Fixtures.id(name))) }
        #expect(try names("v", [Fixtures.record("2", ["v": ref("b")]), Fixtures.record("1", ["v": ref("c")]),
                                Fixtures.record("3", ["v": ref("a")])]) == ["3", "2", "1"])
        #expect(try names("v", [Fixtures.record("1", ["v": .bytes([1, 2])]), Fixtures.record("2", ["v": .bytes([1])]),
                                Fixtures.record("3", ["v": .bytes([0, 9])])]) == ["3", "2", "1"])
        #expect(try names("v", [Fixtures.record("1", ["v": .list(.int64, [.int64(2)])]),
                                Fixtures.record("2", ["v": .list(.int64, [.int64(1), .int64(5)])]),
                                Fixtures.record("3", ["v": .list(.int64, [.int64(1)])])]) == ["3", "2", "1"])
        #expect(try names("v", [Fixtures.record("1", ["v": .location(Location(latitude: 2, longitude: 0))]),
                                Fixtures.record("2", ["v": .location(Location(latitude: 1, longitude: 5))])]) == ["2", "1"])
    }

    @Test func systemKeysSort() throws {
        let records = [
            Fixtures.record("a", created: 30, modified: 40),
            Fixtures.record("b", created: 10, modified: 50),
            Fixtures.record("c"),
        ]
        #expect(try names("creationDate", records) == ["b", "a", "c"])
        #expect(try names("-modificationDate", records) == ["b", "a", "c"])
        #expect(try names("-recordName", records) == ["c", "b", "a"])
    }

    @Test func compareIsAStrictWeakOrder() throws {
        let sort = try SortDescriptor.parseList("-count")
        for a in Self.counted {
            #expect(sort.compare(a, a) == false)
            for b in Self.counted where a != b {
                #expect(sort.compare(a, b) != sort.compare(b, a), "\(a.recordID) vs \(b.recordID)")
            }
        }
    }
}
