import CloudSyncCore
import TestSupport
import Testing

@Suite("cloudsync record (end to end)")
struct RecordCommandTests {
    let home = TemporaryDirectory("record-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func saveEveryTypeAndGetItBack() throws {
        let saved = cli.run(["record", "save", "Note", "n1", "--json",
                             "--field", "title=Hello, world", "--field", "count:INT64=-42", "--field", "ratio:DOUBLE=0.25",
                             "--field", "when:TIMESTAMP=2024-05-01T12:00:00Z", "--field", "blob:BYTES=AAEC/w==",
                             "--field", "parent:REFERENCE=other#DELETE_SELF", "--field", "where:LOCATION=52.52,13.405",
                             "--field", "tags:STRING_LIST=a,b", "--field", "nums:INT64_LIST=[1,2,3]"], device: "laptop")
        #expect(saved.status == 0, "\(saved.stderr)")
        let record = try saved.json()
        #expect(record["recordName"]?.stringValue == "n1")
        #expect(record["recordChangeTag"]?.stringValue?.isEmpty == false)
        #expect(record["created"]?["deviceID"]?.stringValue == "laptop")
        let fields = try #require(record["fields"])
        #expect(fields["count"]?["value"] == .int(-42))
        #expect(fields["count"]?["type"]?.stringValue == "INT64")
        #expect(fields["when"]?["value"] == .int(1_714_564_800_000))
        #expect(fields["blob"]?["value"]?.stringValue == "AAEC/w==")
        #expect(fields["parent"]?["value"]?["action"]?.stringValue == "DELETE_SELF")
        #expect(fields["where"]?["value"]?["latitude"] == .double(52.52))
        #expect(fields["tags"]?["type"]?.stringValue == "STRING_LIST")
        #expect(fields["nums"]?["value"] == .array([.int(1), .int(2), .int(3)]))
        let fetched = try cli.run(["record", "get", "n1", "--json"], device: "phone").firstRecord()
        #expect(fetched == record)
        let text = cli.run(["record", "get", "n1"])
        #expect(text.stdout.contains("Hello, world") && text.stdout.contains("change tag"))
    }

    @Test func conflictsCarryTheServerRecordAndChangeTagsResolveThem() throws {
        let first = try cli.run(["record", "save", "Note", "n1", "--field", "v:INT64=1", "--json"]).json()
        let tag = try #require(first["recordChangeTag"]?.stringValue)
        let conflict = cli.run(["record", "save", "Note", "n1", "--field", "v:INT64=2", "--json"])
        #expect(conflict.status == 4)
        let error = try conflict.errorJSON()["error"]
        #expect(error?["serverErrorCode"]?.stringValue == "CONFLICT")
        #expect(error?["serverRecord"]?["recordChangeTag"]?.stringValue == tag)
        let second = cli.run(["record", "save", "Note", "n1", "--field", "v:INT64=2", "--change-tag", tag, "--json"])
        #expect(second.status == 0)
        #expect(cli.run(["record", "save", "Note", "n1", "--field", "v:INT64=3", "--change-tag", tag]).status == 4, "stale tag")
        let merged = try cli.run(["record", "save", "Note", "n1", "--field", "w=x", "--policy", "changed-keys", "--json"]).json()
        #expect(merged["fields"]?["v"]?["value"] == .int(2))
        #expect(merged["fields"]?["w"]?["value"]?.stringValue == "x")
        #expect(cli.run(["record", "save", "Note", "n1", "--policy", "sometimes"]).status == 64)
    }

    @Test func badValuesAreRefusedAndChangeNothing() throws {
        #expect(cli.run(["record", "save", "Note", "n1", "--field", "count:INT64=5"]).status == 0)
        let cases: [[String]] = [
            ["--field", "count:INT64=five"], ["--field", "x:WHATEVER=1"], ["--field", "noequals"],
            ["--field", "when:TIMESTAMP=yesterday"], ["--field", "b:BYTES=***"], ["--field", "l:LOCATION=200,0"],
            ["--field", "count=a string now", "--policy", "all-keys"], ["--field", "1bad=x"],
        ]
        for extra in cases {
            let result = cli.run(["record", "save", "Note", "n1", "--policy", "all-keys"] + extra)
            #expect(result.status == 65, "\(extra): \(result.status) \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(extra): one line")
        }
        let kept = try cli.run(["record", "get", "n1", "--json"]).firstRecord()
        #expect(kept["fields"]?["count"]?["value"] == .int(5))
    }

    @Test func oversizeRecordAndFieldsFromJSON() throws {
        let big = String(repeating: "A", count: 1_500_000)
        let oversize = cli.run(["record", "save", "Blob", "b1", "--fields-json", "-"],
                               stdin: "{\"data\": {\"value\": \"\(big)\", \"type\": \"BYTES\"}}")
        #expect(oversize.status == 65)
        #expect(oversize.stderr.contains("1 MB"))
        let ok = cli.run(["record", "save", "Note", "j1", "--fields-json", "-", "--json"],
                         stdin: #"{"title": {"value": "from json"}, "n": {"value": 7, "type": "INT64"}}"#)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try ok.json()["fields"]?["n"]?["value"] == .int(7))
        #expect(cli.run(["record", "save", "Note", "j2", "--fields-json", "-"], stdin: "{not json").status == 65)
        #expect(cli.run(["record", "save", "Note", "j3", "--fields-json", home.file("missing.json")]).status == 65)
    }

    @Test func queryWithPredicateSortLimitAndContinuation() throws {
        for i in 1...12 {
            let r = cli.run(["record", "save", "Task", "t\(i)", "--field", "n:INT64=\(i)", "--field", "title=Task \(i)"])
            #expect(r.status == 0)
        }
        let page = try cli.run(["record", "query", "Task", "--where", "n > %@", "--arg", "4", "--sort", "-n", "--limit", "3", "--json"]).json()
        #expect(page["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue } == ["t12", "t11", "t10"])
        let marker = try #require(page["continuationMarker"]?.stringValue)
        let next = try cli.run(["record", "query", "Task", "--where", "n > %@", "--arg", "4", "--sort", "-n", "--limit", "3",
                                "--continuation", marker, "--json"]).json()
        #expect(next["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue } == ["t9", "t8", "t7"])
        let all = try cli.run(["record", "query", "Task", "--limit", "5", "--all", "--json"]).json()
        #expect(all["records"]?.arrayValue?.count == 12)
        let syntax = cli.run(["record", "query", "Task", "--where", "n >> 3"])
        #expect(syntax.status == 65)
        #expect(syntax.stderr.contains("column"))
        #expect(cli.run(["record", "query", "Task", "--where", "n > %@"]).status == 65, "missing argument")
        #expect(cli.run(["record", "query", "Task", "--limit", "0"]).status == 64)
        #expect(cli.run(["record", "query", "Task", "--continuation", "garbage"]).status == 65)
        // A marker changed by one character is refused as damaged (keyset markers carry a checksum).
        var tampered = Array(marker)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        let damaged = cli.run(["record", "query", "Task", "--where", "n > %@", "--arg", "4", "--sort", "-n", "--limit", "3",
                               "--continuation", String(tampered)])
        #expect(damaged.status == 65)
        #expect(damaged.stderr.contains("continuation marker"), "\(damaged.stderr)")
    }

    @Test func deleteAndMissingRecords() throws {
        #expect(cli.run(["record", "save", "Note", "d1"]).status == 0)
        let deleted = try cli.run(["record", "delete", "d1", "--json"]).json()
        #expect(deleted["records"]?.arrayValue?.first?["recordName"]?.stringValue == "d1")
        #expect(deleted["records"]?.arrayValue?.first?["deleted"] == .bool(true))
        #expect(cli.run(["record", "delete", "d1"]).status == 3)
        #expect(cli.run(["record", "get", "d1"]).status == 3)
        #expect(cli.run(["record", "get", "x", "--zone", "NoSuchZone"]).status == 3)
    }

    @Test func publicDatabasePermissions() throws {
        #expect(cli.run(["record", "save", "Post", "p1", "--database", "public", "--field", "text=hi"]).status == 0)
        let read = try cli.run(["--account", "bob", "record", "get", "p1", "--database", "public", "--json"]).firstRecord()
        #expect(read["fields"]?["text"]?["value"]?.stringValue == "hi")
        let tag = try #require(read["recordChangeTag"]?.stringValue)
        let denied = cli.run(["--account", "bob", "record", "save", "Post", "p1", "--database", "public",
                              "--field", "text=bob", "--change-tag", tag])
        #expect(denied.status == 77)
        #expect(cli.run(["--account", "bob", "record", "delete", "p1", "--database", "public"]).status == 77)
    }

    @Test func batchLimit() {
        let names = (0...400).map { "r\($0)" }
        let result = cli.run(["record", "delete"] + names)
        #expect(result.status == 65)
        #expect(result.stderr.contains("400"))
    }
}
