import CloudSyncCore
import Testing

/// Nesting is bounded (issue 17, item 6): deep text is a one-line `invalidArguments` error
/// (exit 65), never a stack overflow, and nothing deeper than the bound reaches the recursive
/// walkers (evaluate, description, referencedFields, equality).
@Suite("Predicate nesting bound")
struct PredicateNestingTests {
    static let max = Predicate.maxNestingDepth

    func parseError(_ text: String) -> CloudError? {
        do {
            _ = try PredicateParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func theBoundIsOneHundred() {
        #expect(Predicate.maxNestingDepth == 100)
    }

    @Test func exactlyTheBoundParsesAndEveryWalkerWorks() throws {
        let nots = try PredicateParser.parse(String(repeating: "NOT ", count: Self.max) + "a == 1")
        #expect(nots.nestingDepth == Self.max)
        let record = Record(recordID: RecordID(recordName: "r", zoneID: ZoneID(zoneName: "Z", ownerRecordName: "_o")),
                            recordType: "Note", fields: ["a": .int64(1)])
        #expect(nots.evaluate(record))  // an even number of NOTs
        #expect(try PredicateParser.parse(nots.description) == nots)
        #expect(nots.referencedFields == ["a"])
        let parens = try PredicateParser.parse(String(repeating: "(", count: Self.max) + "a == 1" + String(repeating: ")", count: Self.max))
        #expect(parens == .comparison("a", .equal, .int64(1)))
        let bangs = try PredicateParser.parse(String(repeating: "!", count: Self.max) + "a == 1")
        #expect(bangs == nots)
    }

    @Test(arguments: ["NOT ", "!", "("])
    func oneLevelMoreIsAnErrorAtTheColumnThatGoesTooDeep(opener: String) {
        let closer = opener == "(" ? ")" : ""
        let text = String(repeating: opener, count: Self.max + 1) + "a == 1" + String(repeating: closer, count: Self.max + 1)
        let error = parseError(text)
        #expect(error?.code == .invalidArguments)
        let column = Self.max * opener.unicodeScalars.count + 1
        #expect(error?.reason == "predicate syntax error at column \(column): nested more than 100 levels deep; at most 100 levels of NOT, AND and parentheses are allowed")
    }

    /// The issue's repros: 5,000 parentheses and 20,000 `!` overflowed the stack.
    @Test func theIssuesInputsAreErrorsNotCrashes() {
        let parens = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        #expect(parseError(parens)?.code == .invalidArguments)
        #expect(parseError(String(repeating: "!", count: 20_000) + "a == 1")?.code == .invalidArguments)
        #expect(parseError(String(repeating: "NOT ", count: 600) + "a == 1")?.code == .invalidArguments)
        // Unbalanced and deep: the depth is reported before the missing ')'.
        #expect(parseError(String(repeating: "(", count: 5000))?.reason.contains("nested more than 100") == true)
    }

    /// Parentheses around an AND add an `and` node: text within the open-level bound can still
    /// build a tree one level deeper, which the parse refuses too.
    @Test func theTreeIsCheckedAfterParsing() throws {
        let inner = String(repeating: "NOT ", count: Self.max - 1) + "(a == 1 AND b == 2)"
        #expect(try PredicateParser.parse(inner).nestingDepth == Self.max)
        let deeper = String(repeating: "NOT ", count: Self.max) + "(a == 1 AND b == 2)"
        #expect(parseError(deeper)?.code == .invalidArguments)
        #expect(parseError(String(repeating: "NOT ", count: Self.max) + "FALSEPREDICATE")?.reason.contains("101 levels") == true)
    }

    @Test func nestingDepthCountsNotAndAndNodes() {
        let a = Predicate.comparison("a", .equal, .int64(1))
        #expect(Predicate.truePredicate.nestingDepth == 0)
        #expect(a.nestingDepth == 0)
        #expect(Predicate.not(a).nestingDepth == 1)
        #expect(Predicate.and([a, .not(.not(a))]).nestingDepth == 3)
        #expect(Predicate.and([]).nestingDepth == 1)
    }

    /// A predicate built in code is measured without recursion, however deep.
    @Test func validateNestingRefusesDeepPredicatesBuiltInCode() {
        var deep = Predicate.comparison("a", .equal, .int64(1))
        for _ in 0..<1000 { deep = .not(deep) }
        #expect(deep.nestingDepth == 1000)
        #expect(throws: CloudError.self) { try deep.validateNesting() }
        var ok = Predicate.truePredicate
        for _ in 0..<Self.max { ok = .and([ok]) }
        #expect(throws: Never.self) { try ok.validateNesting() }
        #expect(throws: CloudError.self) { try Predicate.and([ok]).validateNesting() }
    }
}
