import CloudSyncCore
import Testing

@Suite("PredicateParser: self CONTAINS (token search)")
struct PredicateTokenSearchTests {
    @Test func selfContainsParsesToTheSelfKey() throws {
        #expect(try PredicateParser.parse("self CONTAINS 'bread'") == .comparison(PredicateKeys.selfKey, .contains, .string("bread")))
        #expect(try PredicateParser.parse("SELF contains %@", arguments: ["x"]) == .comparison("self", .contains, .argument("x")))
        #expect(try PredicateParser.parse("NOT self CONTAINS 'a' AND n == 1").referencedFields == ["self", "n"])
    }

    @Test func selfTakesOnlyContains() {
        #expect(throws: CloudError.self) { try PredicateParser.parse("self == 'x'") }
        #expect(throws: CloudError.self) { try PredicateParser.parse("self") }
    }
}
