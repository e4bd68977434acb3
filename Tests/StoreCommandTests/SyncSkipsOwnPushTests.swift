import CloudSyncCore
import TestSupport
import Testing

/// `store sync` does not pull back and apply what it has just pushed (issue 16): the change
/// feed returns the pushed records with the change tags the push cached, so nothing is applied.
@Suite("store sync skips its own pushed records in the pull (end to end)")
struct SyncSkipsOwnPushTests {
    let home = TemporaryDirectory("own-push-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func pushedRecordsAreNotPulledBack() throws {
        #expect(cli.run(["store", "sync", "on"], device: "d1").status == 0)
        for name in ["a", "b", "c"] {
            #expect(cli.run(["store", "put", "Item", name, "--field", "v=1"], device: "d1").status == 0)
        }
        let first = cli.run(["store", "sync", "--json"], device: "d1")
        #expect(first.status == 0, "\(first.stderr)")
        let report = try first.json()
        #expect(report["saved"] == .int(3))
        #expect(report["pulledChanges"] == .int(0), "the three pushed records were not applied again: \(first.stdout)")
        #expect(report["pending"] == .int(0))
        // The other device gets all three; an edit there comes back to d1 as one change.
        #expect(try cli.run(["store", "sync", "--json"], device: "d2").json()["pulledChanges"] == .int(3))
        #expect(cli.run(["store", "put", "Item", "b", "--field", "v=2"], device: "d2").status == 0)
        #expect(try cli.run(["store", "sync", "--json"], device: "d2").json()["pulledChanges"] == .int(0))
        #expect(cli.run(["store", "put", "Item", "c", "--field", "v=3"], device: "d1").status == 0)
        let second = try cli.run(["store", "sync", "--json"], device: "d1").json()
        #expect(second["saved"] == .int(1) && second["pulledChanges"] == .int(1))
        let b = try cli.run(["store", "get", "b", "--json"], device: "d1").firstRecord()
        #expect(b["fields"]?["v"]?["value"] == .string("2"))
        #expect(try cli.run(["store", "sync", "--json"], device: "d2").json()["pulledChanges"] == .int(1))
        let c = try cli.run(["store", "get", "c", "--json"], device: "d2").firstRecord()
        #expect(c["fields"]?["v"]?["value"] == .string("3"))
    }
}
