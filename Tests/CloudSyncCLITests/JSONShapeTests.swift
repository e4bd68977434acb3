import CloudSyncCore
import TestSupport
import Testing

/// Issue 15: with --json every command prints JSON (or refuses --json), one shape whatever the
/// arguments, and a partial failure writes only JSON to stderr.
@Suite("one JSON shape per command (end to end)")
struct JSONShapeTests {
    let home = TemporaryDirectory("json-shapes")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func recordGetUsesTheLookupShapeForOneNameAndMany() throws {
        #expect(cli.run(["record", "save", "Note", "n1", "--field", "t=a"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "n2", "--field", "t=b"]).status == 0)
        let one = try cli.run(["record", "get", "n1", "--json"]).json()
        let two = try cli.run(["record", "get", "n1", "n2", "--json"]).json()
        #expect(one["records"]?.arrayValue?.count == 1)
        #expect(two["records"]?.arrayValue?.count == 2)
        #expect(one["records"]?.arrayValue?.first == two["records"]?.arrayValue?.first)

        let partial = cli.run(["record", "get", "n1", "missing", "--json"])
        #expect(partial.status == 3)
        let records = try partial.json()["records"]?.arrayValue ?? []
        #expect(records.count == 2)
        #expect(records.last?["serverErrorCode"] == .string("NOT_FOUND"))
        // stderr holds only JSON documents.
        for line in partial.stderr.split(separator: "\n") {
            #expect((try? JSONValue.parse(String(line))) != nil, "not JSON on stderr: \(line)")
        }
    }

    @Test func storeGetAndQueryShareTheRecordDictionary() throws {
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "t=a"]).status == 0)
        let got = try cli.run(["store", "get", "n1", "--json"]).json()["records"]?.arrayValue?.first
        let queried = try cli.run(["store", "query", "Note", "--json"]).json()["records"]?.arrayValue?.first
        #expect(got != nil && got == queried)
        #expect(got?["zoneID"]?["zoneName"] != nil && got?["recordType"] == .string("Note"))
    }

    @Test func commandsThatPrintedTextWithJSONNowPrintJSON() throws {
        let set = cli.run(["kv", "set", "k", "1", "--type", "number", "--json"])
        #expect(try set.json()["key"] == .string("k"))
        #expect(try set.json()["value"] == .int(1))
        let deleted = cli.run(["kv", "delete", "k", "--json"])
        #expect(try deleted.json()["keys"] == .array([.object([("key", .string("k")), ("type", .string("number")),
                                                               ("deleted", .bool(true)), ("pending", .bool(true))])]),
                "the type it had, not null: \(deleted.stdout)")
        let version = cli.run(["--version", "--json"])
        #expect(try version.json()["version"]?.stringValue?.isEmpty == false)
        let help = cli.run(["help", "zone", "create", "--json"])
        #expect(try help.json()["command"] == .string("cloudsync zone create"))
        #expect(try help.json()["examples"]?.arrayValue?.isEmpty == false)
        let helpFlag = cli.run(["zone", "--help", "--json"])
        #expect(try helpFlag.json()["subcommands"]?.arrayValue?.count == 3)

        #expect(cli.run(["otp", "add", "--issuer", "GitHub", "--account-name", "a@b.c"], stdin: "JBSWY3DPEHPK3PXP").status == 0)
        let export = cli.run(["otp", "export", "--json"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try export.json()["tokens"]?.arrayValue?.first?["uri"]?.stringValue?.hasPrefix("otpauth://totp/") == true)
        #expect(try cli.run(["otp", "export", "--format", "aegis", "--json"]).json()["db"] != nil)
        #expect(cli.run(["otp", "export", "--qr", "--json"]).status == 64)
    }
}
