import CloudSyncCore
import TestSupport
import Testing

/// With the fault hooks set (`CLOUDSYNC_FAULTS`, `CLOUDSYNC_CALL_LOG`) the cloud is wrapped in a
/// `FaultInjectingCloud`; the wrapper forwards the schema and sharing capabilities, so schema
/// administration, sharing and the shared zones of `store sync` work exactly as without it.
@Suite("schema and sharing with the fault hooks set (end to end)")
struct CapabilitiesUnderFaultsTests {
    let home = TemporaryDirectory("capabilities-faults-e2e")
    /// A fault for a call this scenario never makes: the wrapper is in place, and never fires.
    var faults: [String: String] {
        ["CLOUDSYNC_FAULTS": "networkUnavailable@deleteSubscriptions:1", "CLOUDSYNC_CALL_LOG": home.file("calls.log")]
    }
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: faults) }

    func run(_ account: String, _ arguments: [String]) -> ProcessResult {
        cli.run(["--account", account] + arguments, device: "laptop")
    }

    @Test func schemaSharingAndSharedZonesWorkThroughTheFaultWrapper() throws {
        let file = home.write("notes.ckdb", """
            DEFINE SCHEMA
                RECORD TYPE Note (
                    "___recordID" REFERENCE QUERYABLE,
                    title STRING QUERYABLE SORTABLE
                );
            """)
        let imported = run("alice", ["schema", "import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let shown = run("alice", ["schema", "show"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Note"), "\(shown.stdout)")

        #expect(run("alice", ["store", "put", "Trip", "rome", "--zone", "Trips", "--create-zone", "--field", "city=Rome"]).status == 0)
        #expect(run("alice", ["store", "sync", "on"]).status == 0)
        let created = run("alice", ["--json", "share", "create", "--zone", "Trips"])
        #expect(created.status == 0, "\(created.stderr)")
        let url = try #require(try created.json()["url"]?.stringValue)
        #expect(run("bob", ["zone", "list"]).status == 0)
        #expect(run("alice", ["share", "add", "--zone", "Trips", "bob", "--permission", "read-write"]).status == 0)
        let accepted = run("bob", ["share", "accept", url])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(run("bob", ["store", "config", "shared-zones", "on"]).status == 0)
        let bobOn = run("bob", ["store", "sync", "on"])
        #expect(bobOn.status == 0, "\(bobOn.stderr)")
        let got = run("bob", ["--json", "store", "get", "rome", "--zone", "Trips", "--owner", "alice"])
        #expect(got.status == 0, "shared zones are synced with the fault hooks set: \(got.stderr)")
        #expect(got.stdout.contains("Rome"), "\(got.stdout)")
        #expect(BackgroundProcess.read(home.file("calls.log")).contains("fetchZoneChanges"), "the wrapper was in place")
    }

    /// The share is set up without the hooks; only `store sync` runs with them, and must not skip
    /// the shared zones silently.
    @Test func storeSyncWithTheHooksSetIncludesTheSharedZones() throws {
        let plain = BinaryRunner(home: home.path)
        func setUp(_ account: String, _ arguments: [String]) -> ProcessResult {
            plain.run(["--account", account] + arguments, device: "laptop")
        }
        #expect(setUp("alice", ["store", "put", "Trip", "rome", "--zone", "Trips", "--create-zone", "--field", "city=Rome"]).status == 0)
        #expect(setUp("alice", ["store", "sync", "on"]).status == 0)
        let url = try #require(try setUp("alice", ["--json", "share", "create", "--zone", "Trips"]).json()["url"]?.stringValue)
        #expect(setUp("bob", ["zone", "list"]).status == 0)
        #expect(setUp("alice", ["share", "add", "--zone", "Trips", "bob"]).status == 0)
        #expect(setUp("bob", ["share", "accept", url]).status == 0)
        #expect(setUp("bob", ["store", "config", "shared-zones", "on"]).status == 0)
        let bobOn = run("bob", ["--json", "store", "sync", "on"])
        #expect(bobOn.status == 0, "\(bobOn.stderr)")
        #expect(try bobOn.json()["pulledChanges"]?.int64Value ?? 0 >= 1, "\(bobOn.stdout)")
        let got = setUp("bob", ["--json", "store", "get", "rome", "--zone", "Trips", "--owner", "alice"])
        #expect(got.status == 0 && got.stdout.contains("Rome"), "\(got.stderr)")
    }
}
