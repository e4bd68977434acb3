import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Facing a replaced cloud (a new store epoch), `store sync` finds out before it pushes, so
/// every record is uploaded once, not once by the push and again after the pull.
@Suite("store sync after an epoch change uploads each record once (end to end)")
struct EpochChangeUploadOnceTests {
    let home = TemporaryDirectory("epoch-upload-once-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func eachRecordIsPushedOnce() throws {
        #expect(cli.run(["store", "sync", "on"], device: "d1").status == 0)
        for name in ["a", "b", "c"] {
            #expect(cli.run(["store", "put", "Item", name, "--field", "v=1"], device: "d1").status == 0)
        }
        #expect(try cli.run(["store", "sync", "--json"], device: "d1").json()["saved"] == .int(3))
        for suffix in ["", "-wal", "-shm"] { unlink(home.file("cloud.sqlite" + suffix)) }
        #expect(cli.run(["store", "sync", "on"], device: "d2").status == 0)
        // One edit pending when d1 meets the new cloud.
        #expect(cli.run(["store", "put", "Item", "d", "--field", "v=1"], device: "d1").status == 0)
        let sync = cli.run(["store", "sync", "--json"], device: "d1")
        #expect(sync.status == 0, "\(sync.stderr)")
        let report = try sync.json()
        #expect(report["events"]?.arrayValue?.first?["event"] == .string("epochChanged"))
        #expect(report["saved"] == .int(4), "each of the 4 records uploaded once: \(sync.stdout)")
        #expect(report["conflicts"]?.arrayValue?.isEmpty == true)
        #expect(report["pending"] == .int(0))
        // The other device gets all four.
        let d2 = try cli.run(["store", "sync", "--json"], device: "d2").json()
        #expect(d2["pulledChanges"] == .int(4))
    }
}
