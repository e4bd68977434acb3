import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The raw fetch flow of issue 17 (item 4 and its "also" list), through the built binary.
@Suite("fetch-changes: not found, retries, lost zones, store epochs (end to end)")
struct FetchFlowHardeningTests {
    let home = TemporaryDirectory("fetch-hardening-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func events(_ result: ProcessResult, _ name: String) throws -> [JSONValue] {
        try result.ndjson().filter { $0["event"]?.stringValue == name }
    }

    func seed() {
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "a", "--zone", "Notes", "--field", "t=1"], device: "laptop").status == 0)
        #expect(cli.run(["fetch-changes"], device: "phone").status == 0)
    }

    @Test func aZoneThatNeverExistedIsNotFound() throws {
        seed()
        let typo = cli.run(["fetch-changes", "--zone", "Typo", "--json"], device: "phone")
        #expect(typo.status == 3)
        #expect(typo.stdout.isEmpty, "no event, least of all a zoneDeleted")
        #expect(try typo.errorJSON()["error"]?["serverErrorCode"]?.stringValue == "ZONE_NOT_FOUND")
        // Nothing in the cache changed: the next fetch has nothing new.
        let next = try cli.run(["fetch-changes", "--json"], device: "phone").ndjson()
        #expect(next.count == 1 && next[0]["upToDate"] == .bool(true))
    }

    @Test func networkUnavailableIsRetriedAsStoreSyncDoes() throws {
        seed()
        #expect(cli.run(["record", "save", "Note", "b", "--zone", "Notes"], device: "laptop").status == 0)
        let log = home.file("calls.log")
        let result = cli.run(["fetch-changes", "--json"], device: "phone",
                             env: ["CLOUDSYNC_FAULTS": "networkUnavailable:2", "CLOUDSYNC_CALL_LOG": log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try events(result, "changed").count == 1)
        // A fault that outlasts the retries still ends in 69, after several tries.
        let down = cli.run(["fetch-changes"], device: "phone", env: ["CLOUDSYNC_FAULTS": "networkUnavailable:50"])
        #expect(down.status == 69)
        #expect(down.stderr.contains("gave up after"))
    }

    @Test(arguments: ["zoneNotFound", "userDeletedZone"])
    func aPassingZoneFailureRefetchesTheZoneInsteadOfDroppingIt(_ code: String) throws {
        seed()
        #expect(cli.run(["record", "save", "Note", "b", "--zone", "Notes"], device: "laptop").status == 0)
        let result = cli.run(["fetch-changes", "--json"], device: "phone", env: ["CLOUDSYNC_FAULTS": "\(code)@fetchZoneChanges:1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try events(result, "zoneDeleted").isEmpty)
        let names = try events(result, "changed").compactMap { $0["record"]?["recordName"]?.stringValue }.sorted()
        #expect(names == ["a", "b"], "the zone was fetched again from the start")
        // The cache is whole: the next change arrives alone.
        #expect(cli.run(["record", "save", "Note", "c", "--zone", "Notes"], device: "laptop").status == 0)
        let next = try events(cli.run(["fetch-changes", "--json"], device: "phone"), "changed")
        #expect(next.compactMap { $0["record"]?["recordName"]?.stringValue } == ["c"])
    }

    @Test func subscribeInitRecreatesAZoneTheUserDeleted() throws {
        let first = cli.run(["subscribe", "init", "--zone", "Notes", "--json"], device: "phone")
        #expect(try first.json()["createdZones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("Notes")])
        #expect(cli.run(["fetch-changes"], device: "phone").status == 0)
        #expect(cli.run(["zone", "delete", "Notes", "--purge", "--yes"], device: "laptop").status == 0)
        // The phone learns it from the cloud (the fetch reports the purge) ...
        let fetched = cli.run(["fetch-changes", "--json"], device: "phone")
        #expect(try events(fetched, "zoneDeleted").first?["reason"] == .string("purged"))
        // ... and init re-creates the zone without --verify.
        let again = cli.run(["subscribe", "init", "--zone", "Notes", "--json"], device: "phone")
        #expect(again.status == 0)
        #expect(try again.json()["createdZones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("Notes")])
        let zones = try cli.run(["zone", "list", "--json"]).json()["zones"]?.arrayValue?
            .compactMap { $0["zoneID"]?["zoneName"]?.stringValue } ?? []
        #expect(zones.contains("Notes"))
    }

    /// Replaces the cloud file by a new one (a new store epoch).
    func replaceCloud() {
        for suffix in ["", "-wal", "-shm"] { unlink(home.file("cloud.sqlite" + suffix)) }
    }

    @Test func tokensFromAnotherEpochAreDroppedAndEverythingIsFetchedAgain() throws {
        seed()
        replaceCloud()
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "z", "--zone", "Notes"], device: "laptop").status == 0)
        let result = cli.run(["fetch-changes", "--json"], device: "phone")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try events(result, "epochChanged").first?["droppedRecords"] == .int(1))
        #expect(try events(result, "zoneDeleted").isEmpty, "no zone was deleted: the cloud was replaced")
        #expect(try events(result, "changed").compactMap { $0["record"]?["recordName"]?.stringValue } == ["z"])
        let next = cli.run(["fetch-changes"], device: "phone")
        #expect(next.stdout.contains("Already up to date."))
        #expect(!next.stderr.contains("epoch"))
        // Text mode says so on stderr; a --zone fetch notices too.
        replaceCloud()
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        let text = cli.run(["fetch-changes", "--zone", "Notes"], device: "phone")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stderr.contains("store epoch changed"))
    }

    @Test func storeSyncFacingANewCloudSaysSoAndUploadsAgain() throws {
        #expect(cli.run(["store", "sync", "on"], device: "d1").status == 0)
        #expect(cli.run(["store", "put", "Item", "x", "--field", "v=1"], device: "d1").status == 0)
        #expect(cli.run(["store", "sync"], device: "d1").status == 0)
        replaceCloud()
        #expect(cli.run(["store", "sync", "on"], device: "d2").status == 0)
        let sync = cli.run(["store", "sync", "--json"], device: "d1")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try sync.json()["events"]?.arrayValue?.first?["event"] == .string("epochChanged"))
        #expect(try sync.json()["pending"] == .int(0))
        #expect(cli.run(["store", "sync"], device: "d2").status == 0)
        let got = try cli.run(["store", "get", "x", "--json"], device: "d2").firstRecord()
        #expect(got["fields"]?["v"]?["value"] == .string("1"), "d1's record reached the new cloud")
    }
}
