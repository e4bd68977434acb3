import CloudSyncCore
import Testing

private func parse(_ text: String, _ arguments: [String] = []) throws(CloudError) -> Predicate {
    try PredicateParser.parse(text, arguments: arguments)
}

private func cmp(_ key: String, _ op: PredicateOperator, _ value: PredicateValue) -> Predicate {
    .comparison(key, op, value)
}

@Suite("PredicateParser: operators and structure")
struct PredicateParserStructureTests {
    @Test(arguments: [
        ("a == 1", PredicateOperator.equal), ("a = 1", .equal),
        ("a != 1", .notEqual), ("a <> 1", .notEqual),
        ("a < 1", .less), ("a <= 1", .lessOrEqual), ("a =< 1", .lessOrEqual),
        ("a > 1", .greater), ("a >= 1", .greaterOrEqual), ("a => 1", .greaterOrEqual),
        ("a CONTAINS 1", .contains), ("a contains 1", .contains), ("a==1", .equal), ("a>=1", .greaterOrEqual),
    ])
    func everyComparisonOperator(text: String, op: PredicateOperator) throws {
        #expect(try parse(text) == cmp("a", op, .int64(1)))
    }

    @Test func beginsWithAndInAnyCase() throws {
        #expect(try parse("title BEGINSWITH 'Dr'") == cmp("title", .beginsWith, .string("Dr")))
        #expect(try parse("title beginsWith \"Dr\"") == cmp("title", .beginsWith, .string("Dr")))
        #expect(try parse("n IN {1, 2}") == cmp("n", .in, .list([.int64(1), .int64(2)])))
        #expect(try parse("n in {1,2}") == cmp("n", .in, .list([.int64(1), .int64(2)])))
    }

    @Test func truePredicateAndFalsePredicate() throws {
        #expect(try parse("TRUEPREDICATE") == .truePredicate)
        #expect(try parse("  truepredicate  ") == .truePredicate)
        #expect(try parse("FALSEPREDICATE") == .not(.truePredicate))
    }

    @Test func andChainsAreFlat() throws {
        #expect(try parse("a == 1 AND b == 2 and c == 3") ==
            .and([cmp("a", .equal, .int64(1)), cmp("b", .equal, .int64(2)), cmp("c", .equal, .int64(3))]))
        #expect(try parse("a == 1 && b == 2") == .and([cmp("a", .equal, .int64(1)), cmp("b", .equal, .int64(2))]))
    }

    @Test func notBindsTighterThanAnd() throws {
        #expect(try parse("NOT a == 1 AND b == 2") ==
            .and([.not(cmp("a", .equal, .int64(1))), cmp("b", .equal, .int64(2))]))
        #expect(try parse("!a == 1 && b == 2") ==
            .and([.not(cmp("a", .equal, .int64(1))), cmp("b", .equal, .int64(2))]))
        #expect(try parse("a == 1 AND NOT b == 2") ==
            .and([cmp("a", .equal, .int64(1)), .not(cmp("b", .equal, .int64(2)))]))
        #expect(try parse("not not a == 1") == .not(.not(cmp("a", .equal, .int64(1)))))
    }

    @Test func parenthesesGroup() throws {
        #expect(try parse("NOT (a == 1 AND b == 2)") ==
            .not(.and([cmp("a", .equal, .int64(1)), cmp("b", .equal, .int64(2))])))
        #expect(try parse("a == 1 AND (b == 2 AND c == 3)") ==
            .and([cmp("a", .equal, .int64(1)), .and([cmp("b", .equal, .int64(2)), cmp("c", .equal, .int64(3))])]))
        #expect(try parse("((a == 1))") == cmp("a", .equal, .int64(1)))
        #expect(try parse("(TRUEPREDICATE) AND !(a != 1)") == .and([.truePredicate, .not(cmp("a", .notEqual, .int64(1)))]))
    }

    @Test func escapedKeywordsAreFieldNames() throws {
        #expect(try parse("#in == 1 AND #AND != 'x'") ==
            .and([cmp("in", .equal, .int64(1)), cmp("AND", .notEqual, .string("x"))]))
        // Function names are only functions on the value side.
        #expect(try parse("date > 5 AND cast == 1") ==
            .and([cmp("date", .greater, .int64(5)), cmp("cast", .equal, .int64(1))]))
    }

    @Test func systemKeysParseLikeFields() throws {
        let p = try parse("recordName BEGINSWITH 'a' AND modificationDate > date(0)")
        #expect(p == .and([cmp("recordName", .beginsWith, .string("a")), cmp("modificationDate", .greater, .timestamp(0))]))
    }
}

@Suite("PredicateParser: literals")
struct PredicateParserLiteralTests {
    @Test func strings() throws {
        #expect(try parse("s == 'single'") == cmp("s", .equal, .string("single")))
        #expect(try parse("s == \"double\"") == cmp("s", .equal, .string("double")))
        #expect(try parse("s == ''") == cmp("s", .equal, .string("")))
        #expect(try parse(#"s == "it's \"q\" \\ \n\t\r\0""#) == cmp("s", .equal, .string("it's \"q\" \\ \n\t\r\u{0}")))
        #expect(try parse(#"s == 'it\'s'"#) == cmp("s", .equal, .string("it's")))
        #expect(try parse(#"s == "\u00e9\u20AC""#) == cmp("s", .equal, .string("é€")))
        #expect(try parse("s == 'naïve 😀'") == cmp("s", .equal, .string("naïve 😀")))
    }

    @Test(arguments: [
        ("42", PredicateValue.int64(42)), ("-7", .int64(-7)), ("0", .int64(0)),
        ("9223372036854775807", .int64(.max)), ("-9223372036854775808", .int64(.min)),
        ("3.25", .double(3.25)), ("-0.5", .double(-0.5)), (".5", .double(0.5)), ("-.5", .double(-0.5)),
        ("1e3", .double(1000)), ("2.5E-1", .double(0.25)), ("-1e+2", .double(-100)),
    ])
    func numbers(text: String, value: PredicateValue) throws {
        #expect(try parse("n == \(text)") == cmp("n", .equal, value))
    }

    @Test func booleansAreInt64() throws {
        #expect(try parse("f == TRUE") == cmp("f", .equal, .int64(1)))
        #expect(try parse("f == true") == cmp("f", .equal, .int64(1)))
        #expect(try parse("f == YES") == cmp("f", .equal, .int64(1)))
        #expect(try parse("f == FALSE") == cmp("f", .equal, .int64(0)))
        #expect(try parse("f == no") == cmp("f", .equal, .int64(0)))
    }

    @Test func castNSDateCountsFrom2001() throws {
        // NSDate's reference date is 2001-01-01T00:00:00Z = 978307200 s after the Unix epoch.
        #expect(try parse("d == CAST(0, \"NSDate\")") == cmp("d", .equal, .timestamp(978_307_200_000)))
        #expect(try parse("d == CAST(-978307200, 'NSDate')") == cmp("d", .equal, .timestamp(0)))
        #expect(try parse("d == cast(1.5, \"NSDate\")") == cmp("d", .equal, .timestamp(978_307_201_500)))
        #expect(try parse("d == CAST(725857445, \"NSDate\")") == cmp("d", .equal, .timestamp(1_704_164_645_000)))
        #expect(try parse("d == CAST(%@, \"NSDate\")", ["10"]) == cmp("d", .equal, .timestamp(978_307_210_000)))
    }

    @Test func dateLiterals() throws {
        #expect(try parse("d == date(\"2024-01-02T03:04:05Z\")") == cmp("d", .equal, .timestamp(1_704_164_645_000)))
        #expect(try parse("d == DATE('2024-01-02T04:04:05.250+01:00')") == cmp("d", .equal, .timestamp(1_704_164_645_250)))
        #expect(try parse("d == date(1704164645000)") == cmp("d", .equal, .timestamp(1_704_164_645_000)))
        #expect(try parse("d == date(%@)", ["2024-01-02"]) == cmp("d", .equal, .timestamp(1_704_153_600_000)))
        #expect(try parse("d == date(%@)", ["-1"]) == cmp("d", .equal, .timestamp(-1)))
    }

    @Test func inLists() throws {
        #expect(try parse("x IN {1, 'two', 3.5, TRUE, date(0)}") ==
            cmp("x", .in, .list([.int64(1), .string("two"), .double(3.5), .int64(1), .timestamp(0)])))
        #expect(try parse("x IN {}") == cmp("x", .in, .list([])))
        #expect(try parse("x IN { %@ , %@ }", ["a,b", "c"]) == cmp("x", .in, .list([.argument("a,b"), .argument("c")])))
    }
}

@Suite("PredicateParser: placeholders")
struct PredicateParserPlaceholderTests {
    @Test func valuePlaceholdersBindPositionally() throws {
        #expect(try parse("a == %@ AND b > %@", ["x", "5"]) ==
            .and([cmp("a", .equal, .argument("x")), cmp("b", .greater, .argument("5"))]))
    }

    @Test func keyPlaceholder() throws {
        #expect(try parse("%K == %@", ["count", "5"]) == cmp("count", .equal, .argument("5")))
        #expect(Fixtures.reason { try parse("%K == 1", ["not a name"]) }?.contains("'not a name' is not a field name") == true)
    }

    @Test func inPlaceholderTakesACommaSeparatedList() throws {
        #expect(try parse("x IN %@", ["a, b ,c"]) == cmp("x", .in, .list([.argument("a"), .argument("b"), .argument("c")])))
        #expect(try parse("x IN %@", ["1"]) == cmp("x", .in, .list([.argument("1")])))
        #expect(try parse("x IN %@", [""]) == cmp("x", .in, .list([])))
    }

    @Test func argumentsBindByTheirText() {
        #expect(PredicateValue.argument("5").bound == .int64(5))
        #expect(PredicateValue.argument("-5").bound == .int64(-5))
        #expect(PredicateValue.argument("2.5").bound == .double(2.5))
        #expect(PredicateValue.argument("1e3").bound == .double(1000))
        #expect(PredicateValue.argument("abc").bound == .string("abc"))
        #expect(PredicateValue.argument("+5").bound == .string("+5"))
        #expect(PredicateValue.argument(" 5").bound == .string(" 5"))
        #expect(PredicateValue.argument("inf").bound == .string("inf"))
        #expect(PredicateValue.argument("5.").bound == .string("5."))
        #expect(PredicateValue.argument("99999999999999999999").bound == .string("99999999999999999999"))
        #expect(PredicateValue.list([.argument("1"), .argument("x")]).bound == .list([.int64(1), .string("x")]))
        #expect(PredicateValue.string("5").bound == .string("5"))
    }

    @Test func tooFewArguments() {
        let reason = Fixtures.reason { try parse("a == %@ AND b == %@", ["1"]) }
        #expect(reason == "too few predicate arguments: %@ at column 18 is placeholder 2 but 1 argument(s) were given")
        #expect(Fixtures.error { try parse("a == %@") }?.code == .invalidArguments)
    }

    @Test func tooManyArguments() {
        let reason = Fixtures.reason { try parse("a == %@", ["1", "2"]) }
        #expect(reason == "too many predicate arguments: the predicate has 1 placeholder(s) but 2 argument(s) were given")
        #expect(Fixtures.reason { try parse("TRUEPREDICATE", ["x"]) }?.hasPrefix("too many predicate arguments") == true)
    }
}

@Suite("PredicateParser: errors")
struct PredicateParserErrorTests {
    /// (text, column, start of the message after the column)
    static let cases: [(String, Int, String)] = [
        ("count 5", 7, "expected an operator after 'count', found '5'"),
        ("count", 6, "expected an operator after 'count' but the predicate ended"),
        ("count > ", 9, "expected a value after '>' but the predicate ended"),
        ("a == 1 AND", 11, "expected a field name but the predicate ended"),
        ("(a == 1", 8, "expected ')' to close the '(' at column 1"),
        ("a == 'abc", 6, "unterminated string"),
        ("a == 1 OR b == 2", 8, "OR is not supported by CloudKit queries"),
        ("a == 1 or b == 2", 8, "OR is not supported by CloudKit queries"),
        ("a == 1 || b == 2", 8, "OR is not supported by CloudKit queries"),
        ("a == 1 | b == 2", 8, "OR ('|') is not supported"),
        ("a == 1 & b == 2", 8, "unexpected '&'"),
        ("a == 5x", 6, "invalid number '5x'"),
        ("a == 1.2.3", 6, "invalid number '1.2.3'"),
        (#"a == "x\q""#, 8, "unknown escape '\\q'"),
        (#"a == "\u12""#, 7, "\\u needs exactly four hex digits"),
        (#"a == "\uD800""#, 7, "\\u escape is a surrogate"),
        ("a BEGINSWITH 5", 14, "BEGINSWITH needs a string"),
        ("a IN 5", 6, "IN needs a list"),
        ("a IN {1, 2", 11, "expected ',' or '}' in the list of IN"),
        ("a == {1}", 6, "only IN takes a list"),
        ("a == 1 b == 2", 8, "expected AND or the end of the predicate, found 'b'"),
        ("a ==[c] 'x'", 5, "comparison modifiers such as [c]"),
        ("AND == 1", 1, "expected a field name, found the keyword 'AND'"),
        ("5 == a", 1, "expected a field name, found '5'"),
        ("a == 99999999999999999999", 6, "the number 99999999999999999999 does not fit"),
        ("d == date(\"2024-13-01T00:00:00Z\")", 11, "'2024-13-01T00:00:00Z' is not an ISO-8601 UTC date"),
        ("d == date(\"2024-01-01T00:00:00\")", 11, "'2024-01-01T00:00:00' is not an ISO-8601 UTC date"),
        ("d == CAST(5, \"NSString\")", 14, "only CAST(…, \"NSDate\") is supported"),
        ("d == CAST('x', \"NSDate\")", 11, "CAST needs a number"),
        ("d == CAST(5)", 12, "expected ',' and \"NSDate\" in CAST"),
        ("d == date('2024-01-01'", 23, "expected ')' to close date"),
        ("a == nil", 6, "comparisons with nil are not supported"),
        ("a == b", 6, "'b' is not a value"),
        ("a ENDSWITH 'x'", 3, "the operator ENDSWITH is not supported"),
        ("a LIKE 'x*'", 3, "the operator LIKE is not supported"),
        ("a == 1 AND é == 2", 12, "unexpected character 'é'"),
        ("t == 'ééé' AND", 15, "expected a field name but the predicate ended"),
        ("a == %x", 6, "expected '%@' (a value) or '%K' (a field name)"),
        ("# == 1", 1, "expected a field name after '#'"),
        ("", 1, "empty predicate"),
        ("   ", 4, "empty predicate"),
        ("NOT", 4, "expected a field name but the predicate ended"),
        ("()", 2, "expected a field name, found ')'"),
    ]

    @Test(arguments: cases)
    func syntaxErrorsNameTheColumn(text: String, column: Int, message: String) {
        let error = Fixtures.error { try parse(text) }
        #expect(error?.code == .invalidArguments)
        let reason = error?.reason ?? "(no error)"
        let prefix = "predicate syntax error at column \(column): \(message)"
        #expect(reason.hasPrefix(prefix), "\(reason) should start with \(prefix)")
    }

    @Test func theExampleFromTheSpecification() {
        #expect(Fixtures.reason { try parse("count 5") } ==
            "predicate syntax error at column 7: expected an operator after 'count', found '5'")
    }

    @Test func firstErrorInReadingOrderWins() {
        // A bad token after an earlier mistake is not the one reported.
        #expect(Fixtures.reason { try parse("a b 'unterminated") }?.hasPrefix("predicate syntax error at column 3:") == true)
    }
}

@Suite("Predicate description")
struct PredicateDescriptionTests {
    @Test(arguments: [
        "TRUEPREDICATE",
        "a == 1",
        "NOT a == 1 AND b != \"x\"",
        "NOT (a == 1 AND b == 2) AND c < 3.5",
        "a == 1 AND (b == 2 AND c == 3)",
        #"s BEGINSWITH "q\"\\\n""#,
        "n IN {1, \"two\", 3.5}",
        "tags CONTAINS 'x'",
        "d >= date(\"2024-01-02T03:04:05.250Z\") AND e < date(-5)",
        "#in == 1 AND #not >= 2",
        "x <= -0.5 AND y > 1e+20",
    ])
    func descriptionParsesBackToTheSamePredicate(text: String) throws {
        let predicate = try parse(text)
        #expect(try parse(predicate.description) == predicate, "\(predicate.description)")
    }

    @Test func descriptionSpellsOperatorsCanonically() throws {
        #expect(try parse("a = 1 AND b <> 'x' AND c =< 2 AND NOT d beginswith 'y'").description ==
            "a == 1 AND b != \"x\" AND c <= 2 AND NOT d BEGINSWITH \"y\"")
        #expect(try parse("d == date('2024-01-02T03:04:05Z')").description == "d == date(\"2024-01-02T03:04:05Z\")")
        #expect(try parse("a == %@ AND b == %@", ["5", "five"]).description == "a == 5 AND b == \"five\"")
        #expect(Predicate.and([]).description == "TRUEPREDICATE")
    }

    /// Found by the predicate fuzz target: a BEGINSWITH argument that looks like a number was
    /// written bare, which BEGINSWITH refuses when the description is parsed again.
    @Test func aBeginsWithArgumentIsWrittenAsAString() throws {
        let predicate = try parse("title BEGINSWITH %@", ["22337203"])
        #expect(predicate.description == "title BEGINSWITH \"22337203\"")
        let again = try parse(predicate.description)
        #expect(again.description == predicate.description)
        #expect(again.evaluate(Record(recordID: RecordID(recordName: "r", zoneID: ZoneID(zoneName: "Z", ownerRecordName: "o")),
                                      recordType: "T", fields: ["title": .string("22337203 and more")])))
    }
}
