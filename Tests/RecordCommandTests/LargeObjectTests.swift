import CloudSyncCore
import TestSupport
import Testing

/// Issue 17 item 10 through the built binary: objects with tens of thousands of keys are read
/// (the parser's per-key work is bounded; CloudSyncCoreTests counts it), and repeated keys keep
/// the last value.
@Suite("large JSON objects (end to end)")
struct LargeObjectTests {
    let home = TemporaryDirectory("large-objects")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func fieldsJSONWithFortyThousandKeys() throws {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        var text = "{"
        for key in 0..<40_000 { text += (key > 0 ? "," : "") + "\"f\(key)\":{\"value\":\(key),\"type\":\"INT64\"}" }
        text += ",\"f7\":{\"value\":-7,\"type\":\"INT64\"}}"
        let path = home.write("fields.json", text)
        let saved = cli.run(["record", "save", "Note", "wide", "--zone", "Notes", "--fields-json", path])
        #expect(saved.status == 0, "\(saved.stderr)")
        let got = try cli.run(["record", "get", "wide", "--zone", "Notes", "--json"]).json()
        let fetched = got["records"]?.arrayValue?.first ?? got
        #expect(fetched["fields"]?.objectValue?.count == 40_000)
        #expect(fetched["fields"]?["f7"]?["value"] == .int(-7))
        #expect(fetched["fields"]?["f39999"]?["value"] == .int(39_999))
    }

    @Test func largeKeyValueJSONValueOnAnotherDevice() throws {
        var text = "{"
        for key in 0..<30_000 { text += (key > 0 ? "," : "") + "\"key\(key)\":\(key)" }
        let path = home.write("value.json", text + "}")
        #expect(cli.run(["kv", "set", "big", "--type", "json", "--file", path], device: "d1").status == 0)
        #expect(cli.run(["kv", "sync"], device: "d1").status == 0)
        #expect(cli.run(["kv", "sync"], device: "d2").status == 0)
        let listed = cli.run(["kv", "list", "--json"], device: "d2")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("key29999"))
    }
}
