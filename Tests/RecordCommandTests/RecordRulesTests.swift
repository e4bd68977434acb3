import CloudSyncCore
import TestSupport
import Testing

/// The cloud's rules through `record` (issue 17, items 5 and 6).
@Suite("cloudsync record: reserved names and nesting (end to end)")
struct RecordRulesTests {
    let home = TemporaryDirectory("record-rules")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    /// 5,000 parentheses overflowed the stack (SIGSEGV).
    @Test func theIssuesNestedQueryIsAOneLineError() throws {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "a:INT64=1"]).status == 0)
        let deep = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        let result = cli.run(["record", "query", "Note", "--zone", "Notes", "--where", deep])
        #expect(result.status == 65)
        #expect(result.stderr == "cloudsync: error: predicate syntax error at column 101: nested more than 100 levels deep; at most 100 levels of NOT, AND and parentheses are allowed\n")
        let json = cli.run(["--json", "record", "query", "Note", "--zone", "Notes", "--where", String(repeating: "NOT ", count: 600) + "a == 1"])
        #expect(json.status == 65)
        #expect(try json.errorJSON()["error"]?["reason"]?.stringValue?.contains("nested more than 100 levels") == true)
        let atBound = cli.run(["record", "query", "Note", "--zone", "Notes", "--where", String(repeating: "NOT ", count: 100) + "a == 1", "--json"])
        #expect(atBound.status == 0)
        #expect(atBound.stdout.contains("\"n1\""))
    }

    /// The cloud refuses what would break devices: the sync engine's edit time of another type,
    /// and fields named like system values.
    @Test func theCloudRefusesReservedFields() {
        for field in ["CD_editedAt=yesterday", "recordName=x", "modificationDate:TIMESTAMP=5"] {
            let result = cli.run(["record", "save", "Note", "n1", "--field", field])
            #expect(result.status == 65, "\(field)")
            #expect(result.stderr.contains("reserved"))
        }
        #expect(cli.run(["record", "get", "n1"]).status == 3)
        #expect(cli.run(["record", "save", "Note", "n1", "--field", "CD_editedAt:TIMESTAMP=5"]).status == 0)
    }
}
