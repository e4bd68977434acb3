import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `store sync` against PostgreSQL killed with SIGKILL at random moments, 30 trials (issue 11):
/// after syncing again both devices hold the same records, none lost or duplicated, each with a
/// value that was written to it.
@Suite("cloudsync store sync on PostgreSQL under kill -9")
struct StoreSyncKillTests {
    @Test func killedSyncsLoseAndDuplicateNothing() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        #expect(cli.run(["store", "sync", "on"], device: "setup").status == 0)
        var rng = SystemRandomNumberGenerator()
        var expected: Set<String> = []
        var written: [String: Set<Int64>] = [:]
        var killedMidRun = 0
        var window = 0.06
        for trial in 0..<30 {
            let writer = trial % 2 == 0 ? "laptop" : "phone"
            let script = (0..<20).map { i -> String in
                let name = "r\((trial * 17 + i * 7) % 120)"
                expected.insert(name)
                written[name, default: []].insert(Int64(trial * 1000 + i))
                return "store put Note \(name) --field v:INT64=\(trial * 1000 + i)\n"
            }.joined()
            #expect(cli.run(["repl"], device: writer, stdin: script).status == 0)
            for device in [writer, writer == "laptop" ? "phone" : "laptop"] {
                let running = cli.start(["store", "sync", "--batch-size", "5"], device: device)
                sleepSeconds(Double.random(in: 0...window, using: &rng))
                running.kill()
                if running.wait() == 128 + SIGKILL {
                    killedMidRun += 1
                    window = min(window * 1.1, 0.3)
                } else {
                    window *= 0.7
                }
            }
        }
        #expect(killedMidRun >= 15, "only \(killedMidRun) of 60 syncs were killed before finishing")
        for _ in 0..<2 {
            for device in ["laptop", "phone"] {
                let result = cli.run(["store", "sync"], device: device)
                #expect(result.status == 0, "\(device): \(result.stderr)")
            }
        }
        func records(_ device: String) throws -> [String: Int64] {
            let json = try cli.run(["store", "query", "Note", "--json"], device: device).json()
            var out: [String: Int64] = [:]
            for record in json["records"]?.arrayValue ?? [] {
                out[record["recordName"]?.stringValue ?? "", default: -1] = record["fields"]?["v"]?["value"]?.int64Value ?? -1
            }
            #expect(out.count == json["records"]?.arrayValue?.count, "\(device): no name twice")
            return out
        }
        let laptop = try records("laptop"), phone = try records("phone")
        #expect(laptop == phone)
        #expect(Set(laptop.keys) == expected, "no record lost or invented")
        for (name, value) in laptop {
            #expect(written[name]?.contains(value) == true, "\(name) holds \(value), which was written to it")
        }
        print("store sync on PostgreSQL: \(killedMidRun) of 60 syncs killed mid-run")
    }
}
