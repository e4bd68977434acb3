import CloudSyncCore
import TestSupport
import Testing

/// Issue 15: `store import FILE|-` reads the NDJSON `store export` writes, one history
/// transaction per batch; a bad line is a `FILE:LINE:` error and its batch is not written.
@Suite("store import and export (end to end)")
struct StoreImportExportTests {
    let home = TemporaryDirectory("store-import")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    static func line(_ name: String, _ n: Int, zone: String? = nil) -> String {
        let zonePart = zone.map { ",\"zoneID\":{\"zoneName\":\"\($0)\"}" } ?? ""
        return "{\"recordName\":\"\(name)\",\"recordType\":\"Note\",\"fields\":{\"n\":{\"value\":\(n),\"type\":\"INT64\"},"
            + "\"title\":{\"value\":\"t\(n)\",\"type\":\"STRING\"}}\(zonePart)}"
    }

    @Test func importsInBatchesAndRoundTripsThroughExport() throws {
        let text = (0..<2500).map { Self.line("r\($0)", $0) }.joined(separator: "\n") + "\n"
        let imported = cli.run(["store", "import", "-", "--json"], stdin: text)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try imported.json()["imported"] == .int(2500))
        #expect(try imported.json()["transactions"] == .int(3))
        let history = try cli.run(["store", "history", "--json"]).ndjson()
        #expect(history.count == 3)
        #expect(history.map { $0["changes"]?.arrayValue?.count ?? 0 }.reduce(0, +) == 2500)
        #expect(try cli.run(["store", "status", "--json"]).json()["pending"] == .int(2500))

        let exported = cli.run(["store", "export"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let lines = try exported.ndjson()
        #expect(lines.count == 2500)
        let first = lines.first { $0["recordName"] == .string("r7") }
        #expect(first?["fields"]?["n"]?["value"] == .int(7))
        // The exported lines are what `store get --json` prints, and they import back unchanged.
        let got = try cli.run(["store", "get", "r7", "--json"]).json()
        #expect(got["records"]?.arrayValue?.first == first)
        let other = BinaryRunner(home: TemporaryDirectory("store-import-2").path)
        let again = other.run(["store", "import", "-"], stdin: exported.stdout)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(other.run(["store", "export"]).stdout == exported.stdout)
    }

    @Test func aBadLineNamesFileAndLineAndItsBatchIsNotWritten() throws {
        var lines = (0..<5).map { Self.line("r\($0)", $0) }
        lines.insert("{\"recordName\":\"bad\"}", at: 3)
        let path = home.write("in.ndjson", lines.joined(separator: "\n"))
        let result = cli.run(["store", "import", path, "--batch-size", "2"])
        #expect(result.status == 65)
        #expect(result.stderr.contains(path + ":4: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        // Lines 1-2 were one batch; line 3 and the bad line 4 were the next: r2 is not imported.
        let names = try cli.run(["store", "export"]).ndjson().compactMap { $0["recordName"]?.stringValue }.sorted()
        #expect(names == ["r0", "r1"])

        let stdin = cli.run(["store", "import", "-"], stdin: "not json\n")
        #expect(stdin.status == 65)
        #expect(stdin.stderr.contains("-:1: "))
        // A type clash with the store is found when the batch is written: still FILE:LINE.
        let clash = cli.run(["store", "import", "-"],
                            stdin: Self.line("x1", 1) + "\n{\"recordName\":\"r0\",\"recordType\":\"Task\",\"fields\":{}}\n")
        #expect(clash.status == 65)
        #expect(clash.stderr.contains("-:2: "), "\(clash.stderr)")
        #expect(cli.run(["store", "get", "x1"]).status == 3)
    }

    @Test func importReplacesAndHonoursZones() throws {
        #expect(cli.run(["store", "put", "Note", "r1", "--field", "extra=gone", "--field", "n:INT64=0"]).status == 0)
        let result = cli.run(["store", "import", "-", "--zone", "Z"], stdin: Self.line("r1", 1, zone: LocalZone.name) + "\n"
                              + Self.line("z1", 2))
        #expect(result.status == 0, "\(result.stderr)")
        let r1 = try cli.run(["store", "get", "r1", "--json"]).json()["records"]?.arrayValue?.first
        #expect(r1?["fields"]?["extra"] == nil)
        #expect(r1?["fields"]?["n"]?["value"] == .int(1))
        #expect(cli.run(["store", "get", "z1", "--zone", "Z"]).status == 0)
    }
}

enum LocalZone {
    static let name = "com.apple.coredata.cloudkit.zone"
}
