import CloudSyncCore
import Dispatch
import TestSupport
import Testing

@Suite("cloudsync kv (end to end)")
struct KVCommandTests {
    let home = TemporaryDirectory("kv-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func sync(_ device: String) throws -> [JSONValue] {
        let result = cli.run(["kv", "sync", "--json"], device: device)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.json()["externalChanges"]?.arrayValue ?? []
    }

    @Test func typedValuesAndExternalChangeReasons() throws {
        #expect(cli.run(["kv", "set", "theme", "dark"], device: "a").status == 0)
        #expect(cli.run(["kv", "set", "volume", "0.5", "--type", "number"], device: "a").status == 0)
        #expect(cli.run(["kv", "set", "muted", "true", "--type", "bool"], device: "a").status == 0)
        #expect(cli.run(["kv", "set", "blob", "AAEC", "--type", "data"], device: "a").status == 0)
        #expect(cli.run(["kv", "set", "prefs", #"{"a":[1,2]}"#, "--type", "json"], device: "a").status == 0)
        #expect(try sync("a").isEmpty, "own writes are not external")
        let initial = try sync("b")
        #expect(initial.first?["reason"]?.stringValue == "InitialSyncChange")
        #expect(initial.first?["keys"]?.arrayValue?.count == 5)
        let volume = try cli.run(["kv", "get", "volume", "--json"], device: "b").json()
        #expect(volume["value"] == .double(0.5) && volume["type"]?.stringValue == "number")
        #expect(cli.run(["kv", "get", "prefs"], device: "b").stdout == "{\"a\":[1,2]}\n")
        #expect(cli.run(["kv", "set", "theme", "light"], device: "b").status == 0)
        #expect(cli.run(["kv", "delete", "muted"], device: "b").status == 0)
        _ = try sync("b")
        let server = try sync("a")
        #expect(server.first?["reason"]?.stringValue == "ServerChange")
        let keys = server.first?["keys"]?.arrayValue ?? []
        #expect(Set(keys.compactMap { $0["key"]?.stringValue }) == ["theme", "muted"])
        #expect(keys.first { $0["key"]?.stringValue == "muted" }?["value"] == .null)
        #expect(cli.run(["kv", "get", "muted"], device: "a").status == 3)
        #expect(cli.run(["kv", "get", "theme"], device: "a").stdout == "light\n")
    }

    @Test func concurrentWritersConvergeLastWriterWins() throws {
        let devices = ["a", "b", "c"]
        for d in devices { _ = try sync(d) }
        let runner = cli
        DispatchQueue.concurrentPerform(iterations: 3) { i in
            let d = devices[i]
            for k in 0..<5 {
                _ = runner.run(["kv", "set", "shared\(k)", "\(d)-\(k)"], device: d)
                _ = runner.run(["kv", "set", "own-\(d)-\(k)", "\(k)"], device: d)
            }
            _ = runner.run(["kv", "sync"], device: d)
        }
        for d in devices { _ = try sync(d) }
        let lists = try devices.map { try cli.run(["kv", "list", "--json"], device: $0).json() }
        #expect(lists[0] == lists[1] && lists[1] == lists[2])
        #expect(lists[0]["keys"]?.arrayValue?.count == 5 + 15)
    }

    @Test func quotaViolationsAtEachLimitChangeNothing() throws {
        let longKey = String(repeating: "k", count: 65)
        let r1 = cli.run(["kv", "set", longKey, "x"])
        #expect(r1.status != 0 && r1.stderr.contains("QuotaViolation"))
        #expect(cli.run(["kv", "set", String(repeating: "é", count: 32), "x"]).status == 0, "64 bytes of UTF-8 is allowed")
        let big = String(repeating: "v", count: 1_048_577)
        let r2 = cli.run(["kv", "set", "big", "--file", "-"], stdin: big)
        #expect(r2.status != 0 && r2.stderr.contains("QuotaViolation"))
        // Total size: two values of 600 KB do not fit in 1 MB.
        let half = String(repeating: "h", count: 600_000)
        #expect(cli.run(["kv", "set", "h1", "--file", "-"], stdin: half).status == 0)
        let r3 = cli.run(["kv", "set", "h2", "--file", "-"], stdin: half)
        #expect(r3.status != 0 && r3.stderr.contains("QuotaViolation"))
        #expect(cli.run(["kv", "get", "h2"]).status == 3)
        #expect(cli.run(["kv", "delete", "h1"]).status == 0)
        // 1024 keys: the 1025th fails.
        var script = ""
        for i in 0..<1023 { script += "kv set key\(i) \(i)\n" }
        let batch = cli.run(["repl"], stdin: script)
        if batch.status != 0 {
            for i in 0..<1023 { _ = cli.run(["kv", "set", "key\(i)", "\(i)"]) }
        }
        let count = try cli.run(["kv", "list", "--json"]).json()["keys"]?.arrayValue?.count
        #expect(count == 1024)
        let r4 = cli.run(["kv", "set", "one-too-many", "x"])
        #expect(r4.status != 0 && r4.stderr.contains("1024"))
        #expect(cli.run(["kv", "sync"]).status == 0)
    }

    @Test func aCloudSideQuotaViolationRollsTheKeyBack() throws {
        // Two devices each fill 600 KB offline; the second to sync exceeds the cloud's 1 MB.
        _ = try sync("a"); _ = try sync("b")
        #expect(cli.run(["kv", "set", "fromA", "--file", "-"], device: "a", stdin: String(repeating: "a", count: 600_000)).status == 0)
        #expect(cli.run(["kv", "set", "fromB", "--file", "-"], device: "b", stdin: String(repeating: "b", count: 600_000)).status == 0)
        _ = try sync("a")
        let changes = try sync("b")
        #expect(changes.contains { $0["reason"]?.stringValue == "QuotaViolationChange" })
        #expect(cli.run(["kv", "get", "fromB"], device: "b").status == 3, "rolled back to the cloud's state")
    }

    @Test func badInput() {
        #expect(cli.run(["kv", "set", "n", "abc", "--type", "number"]).status == 65)
        #expect(cli.run(["kv", "set", "n", "maybe", "--type", "bool"]).status == 65)
        #expect(cli.run(["kv", "set", "n", "{", "--type", "json"]).status == 65)
        #expect(cli.run(["kv", "set", "n", "1", "--type", "float"]).status == 64)
        #expect(cli.run(["kv", "set", "n"]).status == 64)
        #expect(cli.run(["kv", "set", "n", "1", "--file", "-"]).status == 64)
        #expect(cli.run(["kv", "set", "n", "--file", "/nonexistent/file"]).status == 65)
        let raw = cli.run(["kv", "set", "bin", "--file", "-", "--type", "data"], stdin: "raw bytes\n")
        #expect(raw.status == 0)
        #expect(cli.run(["kv", "get", "bin"]).stdout == "cmF3IGJ5dGVzCg==\n")
        #expect(cli.run(["kv", "get", "missing"]).status == 3)
        #expect(cli.run(["kv", "delete", "missing"]).status == 3)
    }
}
