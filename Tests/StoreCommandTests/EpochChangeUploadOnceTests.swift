import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Facing a replaced cloud (a new store epoch), `store sync` finds out before it pushes, so
/// every record is uploaded once, in one modify call: not first sent to a zone of the old
/// cloud (which fails), re-created as "missing" and re-marked by the pull.
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
        let log = home.file("calls.log")
        let sync = cli.run(["store", "sync", "--json"], device: "d1", env: ["CLOUDSYNC_CALL_LOG": log])
        #expect(sync.status == 0, "\(sync.stderr)")
        let report = try sync.json()
        #expect(report["events"]?.arrayValue?.first?["event"] == .string("epochChanged"))
        #expect(report["saved"] == .int(4), "each of the 4 records uploaded once: \(sync.stdout)")
        // Counted work: one modify call carries the four records; none was sent to the old
        // zone first and failed, and no zone is reported "missing": the cloud was replaced.
        let calls = String(decoding: TemporaryDirectory.readBytes(log) ?? [], as: UTF8.self).split(separator: "\n")
        #expect(calls.filter { $0 == "modifyRecords" }.count == 1, "\(calls)")
        #expect(report["recreatedZones"]?.arrayValue?.isEmpty == true, "\(sync.stdout)")
        #expect(report["conflicts"]?.arrayValue?.isEmpty == true)
        #expect(report["pending"] == .int(0))
        // The other device gets all four.
        let d2 = try cli.run(["store", "sync", "--json"], device: "d2").json()
        #expect(d2["pulledChanges"] == .int(4))
    }
}
