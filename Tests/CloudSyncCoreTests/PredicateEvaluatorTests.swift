import CloudSyncCore
import Testing

@Suite("Predicate evaluation")
struct PredicateEvaluatorTests {
    static let owner = Reference(recordID: Fixtures.id("user-1"), action: .deleteSelf)

    static let record = Fixtures.record("rec-1", [
        "title": .string("Hello"),
        "accent": .string("\u{E9}"),
        "count": .int64(5),
        "flag": .int64(1),
        "big": .int64(9_007_199_254_740_993),
        "price": .double(2.5),
        "nan": .double(.nan),
        "when": .timestamp(1_704_164_645_000),
        "owner": .reference(owner),
        "blob": .bytes([1, 2, 3]),
        "place": .location(Location(latitude: 1, longitude: 2)),
        "file": .asset(AssetReference(checksum: "ab", size: 3)),
        "tags": .list(.string, [.string("a"), .string("b")]),
        "nums": .list(.int64, [.int64(1), .int64(2), .int64(3)]),
        "times": .list(.timestamp, [.timestamp(0)]),
        "empty": .list(.string, []),
    ], created: 1000, modified: 2000)

    func check(_ text: String, arguments: [String] = [], on record: Record = PredicateEvaluatorTests.record)
        throws -> Bool {
        try PredicateParser.parse(text, arguments: arguments).evaluate(record)
    }

    @Test(arguments: [
        ("title == 'Hello'", true), ("title == 'hello'", false), ("title != 'hello'", true), ("title != 'Hello'", false),
        ("title < 'Help'", true), ("title <= 'Hello'", true), ("title > 'Hello'", false), ("title >= 'Hello'", true),
        ("title > 'Hell'", true), ("title < 'Hello!'", true),
        // Ordinal order: uppercase before lowercase, U+00E9 after 'z'.
        ("title < 'a'", true), ("accent > 'z'", true),
        // No normalization: precomposed é is not e + combining acute.
        ("accent == 'e\\u0301'", false), ("accent == '\\u00e9'", true),
        ("title BEGINSWITH 'He'", true), ("title BEGINSWITH 'he'", false), ("title BEGINSWITH ''", true),
        ("title BEGINSWITH 'Hello!'", false), ("title BEGINSWITH 'Hello'", true),
        ("accent BEGINSWITH 'e'", false),
    ])
    func strings(text: String, expected: Bool) throws {
        #expect(try check(text) == expected)
    }

    @Test(arguments: [
        ("count == 5", true), ("count == 5.0", true), ("count != 5", false), ("count == 6", false),
        ("count < 5.5", true), ("count > 4.9", true), ("count >= 5", true), ("count <= 4", false),
        ("count < 5", false), ("count > 5.0", false), ("count >= 5.0000001", false),
        ("price == 2.5", true), ("price > 2", true), ("price < 3", true), ("price <= 2", false), ("price >= 2.5", true),
        ("flag == TRUE", true), ("flag == FALSE", false), ("flag == YES", true),
        // Exact comparison: 2^53 + 1 is not equal to the double 2^53.
        ("big == 9007199254740992.0", false), ("big > 9007199254740992.0", true), ("big == 9007199254740993", true),
        // A string literal never equals a number field; != is the negation of ==.
        ("count == '5'", false), ("count != '5'", true), ("count < 'z'", false),
        ("title == 5", false), ("title < 5", false), ("title != 5", true),
        // NaN compares with nothing.
        ("nan == 1", false), ("nan < 1", false), ("nan >= 1", false), ("nan != 1", true),
    ])
    func numbers(text: String, expected: Bool) throws {
        #expect(try check(text) == expected)
    }

    @Test func argumentsTakeTheTypeOfTheField() throws {
        #expect(try check("count == %@", arguments: ["5"]))
        #expect(try check("count == %@", arguments: ["5.0"]))
        #expect(try check("count < %@", arguments: ["5.5"]))
        #expect(try check("count == %@", arguments: ["abc"]) == false)
        #expect(try check("count != %@", arguments: ["abc"]))
        #expect(try check("price > %@", arguments: ["2"]))
        // The same text against a STRING field compares as written.
        let record = Fixtures.record("r", ["title": .string("42"), "padded": .string("042")])
        #expect(try check("title == %@", arguments: ["42"], on: record))
        #expect(try check("padded == %@", arguments: ["42"], on: record) == false)
        #expect(try check("padded BEGINSWITH %@", arguments: ["04"], on: record))
    }

    @Test(arguments: [
        ("when == date('2024-01-02T03:04:05Z')", true), ("when == date(1704164645000)", true),
        ("when == 1704164645000", true), ("when < 1704164645000.5", true), ("when > 1704164644999", true),
        ("when > '2024-01-01T00:00:00Z'", true), ("when < '2024-01-02T03:04:05.001Z'", true),
        ("when == '2024-01-02T04:04:05+01:00'", true), ("when == 'not a date'", false), ("when != 'not a date'", true),
        ("when == CAST(725857445, 'NSDate')", true), ("when > CAST(0, 'NSDate')", true),
        ("count == date(5)", false),
    ])
    func timestamps(text: String, expected: Bool) throws {
        #expect(try check(text) == expected)
    }

    @Test func timestampArguments() throws {
        #expect(try check("when == %@", arguments: ["1704164645000"]))
        #expect(try check("when == %@", arguments: ["2024-01-02T03:04:05Z"]))
        #expect(try check("when < %@", arguments: ["2024-01-03"]))
        #expect(try check("when > %@", arguments: ["2024-01-03"]) == false)
        #expect(try check("when == %@", arguments: ["yesterday"]) == false)
        #expect(try check("when IN %@", arguments: ["0, 2024-01-02T03:04:05Z"]))
    }

    @Test func referencesCompareByRecordName() throws {
        #expect(try check("owner == 'user-1'"))
        #expect(try check("owner == %@", arguments: ["user-1"]))
        #expect(try check("owner != 'user-2'"))
        #expect(try check("owner IN {'user-0', 'user-1'}"))
        #expect(try check("owner == 1") == false)
    }

    @Test(arguments: [
        ("tags CONTAINS 'a'", true), ("tags CONTAINS 'c'", false), ("tags CONTAINS 1", false),
        ("nums CONTAINS 2", true), ("nums CONTAINS 2.0", true), ("nums CONTAINS 4", false),
        ("times CONTAINS date(0)", true), ("empty CONTAINS 'a'", false),
        // CONTAINS is for lists only: no substring search.
        ("title CONTAINS 'ell'", false),
        // A list is not equal to a scalar.
        ("tags == 'a'", false), ("tags != 'a'", true), ("tags IN {'a'}", false),
    ])
    func lists(text: String, expected: Bool) throws {
        #expect(try check(text) == expected)
    }

    @Test func listArguments() throws {
        #expect(try check("nums CONTAINS %@", arguments: ["2"]))
        #expect(try check("tags CONTAINS %@", arguments: ["b"]))
        #expect(try check("tags CONTAINS %@", arguments: ["B"]) == false)
    }

    @Test(arguments: [
        ("title IN {'x', 'Hello'}", true), ("title IN {'x', 'hello'}", false), ("count IN {1, 5}", true),
        ("count IN {1, 5.0}", true), ("count IN {1, 2}", false), ("count IN {}", false), ("price IN {2.5}", true),
        ("NOT count IN {1, 2}", true), ("count IN {'5'}", false),
    ])
    func inOperator(text: String, expected: Bool) throws {
        #expect(try check(text) == expected)
    }

    @Test func inWithAnArgumentList() throws {
        #expect(try check("count IN %@", arguments: ["1, 5"]))
        #expect(try check("count IN %@", arguments: ["1,2"]) == false)
        #expect(try check("title IN %@", arguments: ["a,Hello"]))
        #expect(try check("title IN %@", arguments: [""]) == false)
        #expect(try check("title IN {%@}", arguments: ["Hello"]))
    }

    @Test(arguments: [
        ("missing == 1", false), ("missing != 1", true), ("missing < 1", false), ("missing >= 1", false),
        ("missing BEGINSWITH 'a'", false), ("missing IN {1}", false), ("missing CONTAINS 1", false),
        ("NOT missing == 1", true), ("missing != 'x' AND count == 5", true),
    ])
    func missingFields(text: String, expected: Bool) throws {
        #expect(try check(text) == expected)
    }

    @Test(arguments: [
        "blob == 'AQID'", "blob < 'x'", "place == 1", "place == '1,2'", "file == 'ab'", "blob BEGINSWITH 'A'",
        "count BEGINSWITH %@", "place CONTAINS 1",
    ])
    func incomparableTypesAreFalseAndTheirNegationTrue(text: String) throws {
        let arguments = text.contains("%@") ? ["5"] : []
        #expect(try check(text, arguments: arguments) == false)
        #expect(try check("NOT " + text, arguments: arguments))
    }

    @Test func systemKeys() throws {
        #expect(try check("recordName == 'rec-1'"))
        #expect(try check("recordName BEGINSWITH 'rec-'"))
        #expect(try check("creationDate == 1000 AND modificationDate == date(2000)"))
        // An unsaved record has no system stamps.
        let unsaved = Fixtures.record("new", ["creationDate": .int64(7)])
        #expect(try check("creationDate == 7", on: unsaved) == false)
        #expect(try check("creationDate != 7", on: unsaved))
        #expect(try check("recordName == 'new'", on: unsaved))
        // System keys win over a user field of the same name.
        let shadow = Fixtures.record("real", ["recordName": .string("fake")])
        #expect(try check("recordName == 'real'", on: shadow))
    }

    @Test func logic() throws {
        #expect(try check("TRUEPREDICATE"))
        #expect(try check("FALSEPREDICATE") == false)
        #expect(try check("count == 5 AND title == 'Hello'"))
        #expect(try check("count == 5 AND title == 'nope'") == false)
        #expect(try check("NOT (count == 5 AND title == 'nope')"))
        #expect(try check("NOT NOT count == 5"))
        #expect(Predicate.and([]).evaluate(Self.record))
        #expect(Predicate.not(.and([])).evaluate(Self.record) == false)
    }

    @Test func referencedFields() throws {
        let p = try PredicateParser.parse("a == 1 AND NOT (b > 2 AND recordName BEGINSWITH 'x') AND a < 5 AND TRUEPREDICATE")
        #expect(p.referencedFields == ["a", "b", "recordName"])
        #expect(Predicate.truePredicate.referencedFields.isEmpty)
        #expect(try PredicateParser.parse("%K == 1", arguments: ["dyn"]).referencedFields == ["dyn"])
    }

    @Test func queryValueForKey() {
        let r = Self.record
        #expect(r.queryValue(forKey: "title") == .string("Hello"))
        #expect(r.queryValue(forKey: "recordName") == .string("rec-1"))
        #expect(r.queryValue(forKey: "creationDate") == .timestamp(1000))
        #expect(r.queryValue(forKey: "modificationDate") == .timestamp(2000))
        #expect(r.queryValue(forKey: "nothing") == nil)
        #expect(PredicateKeys.all == ["recordName", "creationDate", "modificationDate", "___createTime", "___modTime",
                                      "___recordID", "___createdBy", "___modifiedBy"])
        // Apple's names of the system fields (issue 30).
        #expect(r.queryValue(forKey: "___createTime") == .timestamp(1000))
        #expect(r.queryValue(forKey: "___modTime") == .timestamp(2000))
        #expect(r.queryValue(forKey: "___recordID") == .string("rec-1"))
    }
}
