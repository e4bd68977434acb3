import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("cloudsync store (end to end)")
struct StoreCommandTests {
    let home = TemporaryDirectory("store-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    /// Sync is off by default (seed 000): the tests that sync turn it on for the account.
    func turnSyncOn() {
        let result = cli.run(["store", "sync", "on"], device: "setup")
        #expect(result.status == 0, "\(result.stderr)")
    }

    func records(_ device: String) throws -> [String: JSONValue] {
        let json = try cli.run(["store", "query", "Note", "--json"], device: device).json()
        var out: [String: JSONValue] = [:]
        for record in json["records"]?.arrayValue ?? [] {
            out[record["recordName"]?.stringValue ?? ""] = record["fields"]
        }
        return out
    }

    @Test func queryLimitsWithAndWithoutSortAcrossZones() throws {
        let cli = BinaryRunner(home: home.path)
        for (zone, names) in [("B", ["b1", "b2"]), ("A", ["a3", "a1", "a2"])] {
            for (i, name) in names.enumerated() {
                #expect(cli.run(["store", "put", "Note", name, "--zone", zone, "--create-zone", "--field", "n:INT64=\(i + (zone == "A" ? 10 : 0))"]).status == 0)
            }
        }
        #expect(cli.run(["store", "put", "Other", "o1", "--field", "n:INT64=99"]).status == 0)
        func names(_ extra: [String]) throws -> [String] {
            try cli.run(["store", "query", "Note", "--json"] + extra).json()["records"]?.arrayValue?
                .compactMap { $0["recordName"]?.stringValue } ?? []
        }
        // Unsorted: (zone, name) order, cut at the limit.
        #expect(try names([]) == ["a1", "a2", "a3", "b1", "b2"])
        #expect(try names(["--limit", "2"]) == ["a1", "a2"])
        #expect(try names(["--where", "n < %@", "--arg", "10", "--limit", "1"]) == ["b1"])
        // Sorted: every match is ranked before the cut.
        #expect(try names(["--sort", "-n", "--limit", "2"]) == ["a2", "a1"])
        #expect(try names(["--zone", "B", "--sort", "-n"]) == ["b2", "b1"])
        #expect(cli.run(["store", "query", "Note", "--limit", "0"]).status == 64)
    }

    @Test func localCommandsWorkOfflineAndRecordHistory() throws {
        // An unreachable cloud proves put/get/query/delete/history/status never touch it.
        let offline = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_CLOUD": "postgres://nowhere/db"])
        #expect(offline.run(["store", "put", "Note", "n1", "--field", "title=Hi", "--field", "n:INT64=1"]).status == 0)
        #expect(offline.run(["store", "put", "Note", "n1", "--field", "n:INT64=2", "--unset", "title"]).status == 0)
        #expect(offline.run(["store", "put", "Note", "n2", "--field", "n:INT64=5"]).status == 0)
        let got = try offline.run(["store", "get", "n1", "--json"]).firstRecord()
        #expect(got["fields"]?["n"]?["value"] == .int(2))
        #expect(got["fields"]?["title"] == nil)
        #expect(got["pending"] == .bool(true))
        let query = try offline.run(["store", "query", "Note", "--where", "n > %@", "--arg", "1", "--sort", "-n", "--json"]).json()
        #expect(query["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue } == ["n2", "n1"])
        #expect(offline.run(["store", "delete", "n2"]).status == 0)
        #expect(offline.run(["store", "delete", "n2"]).status == 3)
        #expect(offline.run(["store", "get", "n2"]).status == 3)
        let history = try offline.run(["store", "history", "--json"]).ndjson()
        #expect(history.map { $0["changes"]?.arrayValue?.first?["kind"]?.stringValue } == ["insert", "update", "insert", "delete"])
        #expect(history[1]["changes"]?.arrayValue?.first?["changedKeys"] == .array([.string("n"), .string("title")]))
        #expect(try offline.run(["store", "history", "--since", "3", "--json"]).ndjson().count == 1)
        let status = try offline.run(["store", "status", "--json"]).json()
        #expect(status["pending"] == .int(2))
        #expect(status["lastSync"] == .null)
        // Sync is off (as this device last saw it): nothing to send, so no cloud is needed (issue 27).
        let off = offline.run(["store", "sync"])
        #expect(off.status == 0 && off.stdout.contains("as last seen"), "\(off.stdout) \(off.stderr)")
        #expect(offline.run(["store", "sync", "on"]).status == 69, "turning it on needs the cloud")
    }

    @Test func badInputGetsOneLineErrors() throws {
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "n:INT64=1"]).status == 0)
        let wrongType = cli.run(["store", "put", "Note", "n1", "--field", "n=text"])
        #expect(wrongType.status == 65)
        #expect(wrongType.stderr.contains("INT64"))
        #expect(cli.run(["store", "put", "Task", "n1"]).status == 65, "a record keeps its type")
        #expect(cli.run(["store", "config", "merge-policy", "coinflip"]).status == 64)
        #expect(cli.run(["store", "sync", "--batch-size", "401"]).status == 64)
        #expect(cli.run(["store", "get", "nope"]).status == 3)
        home.makeDirectory("devices/alice")
        home.write("devices/alice/broken.sqlite", String(repeating: "junk", count: 2000))
        let corrupt = cli.run(["store", "status"], device: "broken")
        #expect(corrupt.status == 69)
        #expect(corrupt.stderr.split(separator: "\n").count == 1)
    }

    @Test func twoDevicesSyncWithAConflictReported() throws {
        turnSyncOn()
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "title=one", "--field", "body=b"], device: "laptop").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        #expect(cli.run(["store", "sync"], device: "phone").status == 0)
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "title=laptop"], device: "laptop").status == 0)
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "body=phone"], device: "phone").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        let report = try cli.run(["store", "sync", "--json"], device: "phone").json()
        #expect(report["conflicts"]?.arrayValue?.count == 1)
        #expect(report["conflicts"]?.arrayValue?.first?["policy"]?.stringValue == "fields")
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        let laptop = try records("laptop"), phone = try records("phone")
        #expect(laptop == phone)
        #expect(laptop["n1"]?["title"]?["value"]?.stringValue == "laptop")
        #expect(laptop["n1"]?["body"]?["value"]?.stringValue == "phone")
        let conflicts = try cli.run(["store", "conflicts", "--json"], device: "phone").json()
        #expect(conflicts["conflicts"]?.arrayValue?.count == 1)
        let status = try cli.run(["store", "status", "--json"], device: "phone").json()
        #expect(status["pending"] == .int(0) && status["conflicts"] == .int(1) && status["unresolvedConflicts"] == .int(0))
    }

    @Test func faultsAreRetriedOrFailWithTheDocumentedStatus() throws {
        turnSyncOn()
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "v:INT64=1"]).status == 0)
        let recovered = cli.run(["store", "sync", "--json"], env: ["CLOUDSYNC_FAULTS": "networkUnavailable:2,zoneBusy:1"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(try recovered.json()["saved"] == .int(1))
        #expect(cli.run(["store", "put", "Note", "n2", "--field", "v:INT64=2"]).status == 0)
        let network = cli.run(["store", "sync"], env: ["CLOUDSYNC_FAULTS": "networkUnavailable:20"])
        #expect(network.status == 69)
        #expect(network.stderr.contains("gave up"))
        let busy = cli.run(["store", "sync", "--json"], env: ["CLOUDSYNC_FAULTS": "zoneBusy:20"])
        #expect(busy.status == 75)
        #expect(try busy.errorJSON()["error"]?["retryAfter"]?.doubleValue != nil)
        let status = try cli.run(["store", "status", "--json"]).json()
        #expect(status["pending"] == .int(1), "the failed syncs left n2 pending")
        #expect(cli.run(["store", "sync"], env: ["CLOUDSYNC_FAULTS": "bogusCode:1"]).status == 64, "a bad CLOUDSYNC_FAULTS is a usage error")
        #expect(cli.run(["store", "sync"]).status == 0)
    }

    @Test func userDeletedZoneIsRecreatedFromTheCLI() throws {
        turnSyncOn()
        #expect(cli.run(["store", "put", "Note", "n1"], device: "laptop").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        #expect(cli.run(["zone", "delete", "com.apple.coredata.cloudkit.zone", "--purge", "--yes"], device: "laptop").status == 0)
        let sync = try cli.run(["store", "sync", "--json"], device: "laptop").json()
        #expect(sync["recreatedZones"] == .array([.string("com.apple.coredata.cloudkit.zone")]))
        #expect(cli.run(["store", "sync"], device: "phone").status == 0)
        #expect(try records("phone").keys.sorted() == ["n1"])
    }

    /// The desk makes zone Work with w0; the laptop pulls it and edits w1 in it (pending); then the
    /// desk deletes the zone.
    private func deleteZoneWorkOnTheDeskWhileTheLaptopHoldsAnEdit() {
        turnSyncOn()
        #expect(cli.run(["zone", "create", "Work"], device: "desk").status == 0)
        #expect(cli.run(["store", "put", "Note", "w0", "--zone", "Work", "--create-zone"], device: "desk").status == 0)
        #expect(cli.run(["store", "sync"], device: "desk").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        #expect(cli.run(["store", "put", "Note", "w1", "--zone", "Work"], device: "laptop").status == 0)
        #expect(cli.run(["zone", "delete", "Work", "--yes"], device: "desk").status == 0)
    }

    /// A zone another device made, pulled here, then deleted elsewhere while an edit of it waited
    /// here: the push re-creates it, names it, and uploads every record this device held of it.
    @Test func aPushIntoAZoneDeletedElsewhereNamesItAndUploadsItAgain() throws {
        deleteZoneWorkOnTheDeskWhileTheLaptopHoldsAnEdit()
        let json = cli.run(["store", "sync", "--json"], device: "laptop")
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try json.json()["recreatedZones"] == .array([.string("Work")]), "\(json.stdout)")
        for name in ["w0", "w1"] {
            #expect(cli.run(["record", "get", name, "--zone", "Work"], device: "desk").status == 0, "\(name) is in the cloud again")
        }
        #expect(try cli.run(["store", "status", "--json"], device: "laptop").json()["pending"] == .int(0))
    }

    @Test func aPushIntoAZoneDeletedElsewhereSaysSoInText() throws {
        deleteZoneWorkOnTheDeskWhileTheLaptopHoldsAnEdit()
        let text = cli.run(["store", "sync"], device: "laptop")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("zone Work was missing in the cloud: re-created"), "\(text.stdout)")
    }

    /// "Newer wins" compares when the edits were made, not when they reached the cloud: an
    /// older offline edit pushed first does not beat a newer one pushed after it.
    @Test func theNewerEditWinsEvenWhenTheOlderOneIsPushedLater() throws {
        turnSyncOn()
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "v:INT64=1"], device: "laptop").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        #expect(cli.run(["store", "sync"], device: "phone").status == 0)
        // Both offline: the laptop edits first, the phone later.
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "v:INT64=2"], device: "laptop").status == 0)
        sleepSeconds(0.01)
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "v:INT64=3"], device: "phone").status == 0)
        // The older edit reaches the cloud first; the newer one meets it as a conflict.
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        let phone = try cli.run(["store", "sync", "--json"], device: "phone").json()
        #expect(phone["conflicts"]?.arrayValue?.count == 1)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        for device in ["laptop", "phone"] {
            #expect(try records(device)["n1"]?["v"]?["value"] == .int(3), "\(device) keeps the newer edit")
        }
        // The edit time travels in the cloud record; the local model never sees the field.
        let cloud = try cli.run(["record", "get", "n1", "--zone", "com.apple.coredata.cloudkit.zone", "--json"],
                                device: "auditor").firstRecord()
        #expect(cloud["fields"]?["CD_editedAt"]?["type"] == .string("TIMESTAMP"))
        #expect(try records("phone")["n1"]?["CD_editedAt"] == nil)
    }

    @Test func downloadOnlyLeavesLocalChangesPending() throws {
        turnSyncOn()
        #expect(cli.run(["store", "put", "Note", "mine"], device: "laptop").status == 0)
        let report = try cli.run(["store", "sync", "--download-only", "--json"], device: "laptop").json()
        #expect(report["saved"] == .int(0) && report["pending"] == .int(1))
    }

    /// kill -9 of `store sync` at random moments, then sync again: every device converges, no
    /// record is lost or duplicated, no token is ever ahead of applied data, and every record
    /// holds its last write, even when an older edit on the other device was pushed later (the
    /// merge compares edit times, see EditTime); the edits it overrode are in a conflict log.
    @Test func crashSafetyUnderKillNine() throws {
        turnSyncOn()
        let trials = Int(ProcessInfoLite.environment("CLOUDSYNC_CRASH_TRIALS") ?? "") ?? 30
        var rng = SystemRandomNumberGenerator()
        var expected: [String: Int64] = [:]
        var written: [String: Set<Int64>] = [:]
        var killedMidRun = 0
        var window = 0.06
        for trial in 0..<trials {
            let writer = trial % 2 == 0 ? "laptop" : "phone"
            // A burst of offline work on one device: new records and edits of old ones.
            let script = (0..<40).map { i -> String in
                let name = "r\((trial * 17 + i * 7) % 120)"
                expected[name] = Int64(trial * 1000 + i)
                written[name, default: []].insert(Int64(trial * 1000 + i))
                return "store put Note \(name) --field v:INT64=\(trial * 1000 + i)"
            }
            for line in script {
                let words = line.split(separator: " ").map(String.init)
                #expect(cli.run(words, device: writer).status == 0)
            }
            // Sync both devices with small batches, killing each at a random moment of its run.
            // The window adapts to how long a sync takes on this machine: it shrinks after a
            // sync that finished before the kill and grows after one that was killed, so the
            // kills keep landing inside runs however fast the build or the machine is.
            for device in [writer, writer == "laptop" ? "phone" : "laptop"] {
                let running = cli.start(["store", "sync", "--batch-size", "5"], device: device)
                sleepSeconds(Double.random(in: 0...window, using: &rng))
                running.kill()
                if running.wait() == 128 + SIGKILL {
                    killedMidRun += 1
                    window = min(window * 1.1, 0.2)
                } else {
                    window *= 0.7
                }
            }
        }
        #expect(killedMidRun >= trials / 2, "only \(killedMidRun) of \(trials * 2) syncs were killed before finishing")
        // Recovery: sync until quiet.
        for _ in 0..<2 {
            for device in ["laptop", "phone"] {
                let r = cli.run(["store", "sync"], device: device)
                #expect(r.status == 0, "\(device): \(r.stderr)")
            }
        }
        let laptop = try records("laptop"), phone = try records("phone")
        #expect(laptop == phone)
        #expect(laptop.count == expected.count, "no record lost or duplicated")
        var conflicted = Set<String>()
        for device in ["laptop", "phone"] {
            let log = try cli.run(["store", "conflicts", "--limit", "100000", "--json"], device: device).json()
            for entry in log["conflicts"]?.arrayValue ?? [] {
                if let name = entry["recordName"]?.stringValue { conflicted.insert(name) }
            }
        }
        for (name, last) in expected {
            guard case .int(let value)? = laptop[name]?["v"]?["value"] else {
                Issue.record("\(name) has no value")
                continue
            }
            #expect(written[name]?.contains(value) == true, "\(name) holds a value that was written to it")
            #expect(value == last, "\(name) has its last write \(last), not \(value)\(conflicted.contains(name) ? "" : " (and no conflict was logged)")")
        }
        // The caches agree with the cloud: a token ahead of data would leave a record missing.
        let cloudSide = try cli.run(["fetch-changes", "--reset", "--json"], device: "auditor").ndjson()
        #expect(cloudSide.last?["changed"] == .int(Int64(expected.count)))
        for device in ["laptop", "phone"] {
            #expect(try cli.run(["store", "status", "--json"], device: device).json()["pending"] == .int(0))
        }
    }
}

/// Reads the process environment without Foundation.
enum ProcessInfoLite {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
