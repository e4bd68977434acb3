import TestSupport
import Testing

/// A script line with a deeply nested predicate is an error like any other (issue 17, item 6):
/// it overflowed the stack and killed the whole script.
@Suite struct ReplNestingTests {
    @Test func aDeepPredicateInAScriptIsAnErrorAndTheScriptGoesOn() {
        let home = TemporaryDirectory("script-nesting")
        let script = """
            store put Note n1 --field a:INT64=1
            store query Note --where '\(String(repeating: "!", count: 20_000))a == 1'
            record query Note --where "\(String(repeating: "(", count: 5000))a == 1\(String(repeating: ")", count: 5000))"
            store get n1
            """
        let result = BinaryRunner(home: home.path).run([], device: "laptop", stdin: script)
        #expect(result.status == 65)
        #expect(result.stderr.split(separator: "\n").filter { $0.contains("nested more than 100 levels deep") }.count == 2)
        #expect(result.stdout.contains("n1"), "the line after the errors ran")
    }
}
