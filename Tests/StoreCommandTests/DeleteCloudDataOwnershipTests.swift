import CloudSyncCore
import TestSupport
import Testing

/// `sync off --delete-cloud-data` deletes only the zones the local store owns: its default zone
/// and the zones its syncs made. A zone it merely pulled (made by `zone create`, `record save`
/// or another device's store) stays in the cloud.
@Suite("sync off --delete-cloud-data: only the store's own zones (end to end)")
struct DeleteCloudDataOwnershipTests {
    let home = TemporaryDirectory("delete-cloud-data-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func zones() throws -> [String] {
        try cli.run(["zone", "list", "--json"]).json()["zones"]?.arrayValue?
            .compactMap { $0["zoneID"]?["zoneName"]?.stringValue }.sorted() ?? []
    }

    func seedNotes() {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "a", "--zone", "Notes", "--field", "t=1"]).status == 0)
    }

    @Test(arguments: ["store", "otp"])
    func aZoneMadeByZoneCreateSurvives(family: String) throws {
        seedNotes()
        #expect(cli.run(["store", "sync", "on"]).status == 0)
        #expect(cli.run(["store", "put", "Item", "x", "--field", "v=1"]).status == 0)
        #expect(cli.run(["store", "sync"]).status == 0)
        #expect(try zones().contains("com.apple.coredata.cloudkit.zone"))
        let off = cli.run([family, "sync", "off", "--delete-cloud-data", "--yes"])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(off.stdout.contains("deleted zone com.apple.coredata.cloudkit.zone from the cloud"))
        #expect(!off.stdout.contains("Notes"), "\(off.stdout)")
        #expect(try zones() == ["Notes", "_defaultZone"])
        let note = try cli.run(["record", "get", "a", "--zone", "Notes", "--json"]).firstRecord()
        #expect(note["fields"]?["t"]?["value"] == .string("1"))
    }

    @Test func theBriefsReproKeepsNotes() throws {
        seedNotes()
        #expect(cli.run(["store", "sync", "on"]).status == 0)
        let off = cli.run(["store", "sync", "off", "--delete-cloud-data", "--yes", "--json"])
        #expect(off.status == 0, "\(off.stderr)")
        let deleted = try off.json()["deletedZones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } ?? []
        #expect(!deleted.contains("Notes"))
        #expect(try zones().contains("Notes"))
    }

    @Test func aZoneTheStoreMadeIsDeletedAndComesBackOnSyncOn() throws {
        seedNotes()
        #expect(cli.run(["store", "sync", "on"]).status == 0)
        #expect(cli.run(["store", "put", "Item", "w", "--zone", "Work", "--create-zone", "--field", "v=1"]).status == 0)
        // Writing through the store to a zone it did not make does not make it the store's.
        #expect(cli.run(["store", "put", "Note", "b", "--zone", "Notes", "--field", "t=2"]).status == 0)
        #expect(cli.run(["store", "sync"]).status == 0)
        #expect(try zones() == ["Notes", "Work", "_defaultZone"])
        let off = try cli.run(["store", "sync", "off", "--delete-cloud-data", "--yes", "--json"]).json()
        #expect(off["deletedZones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue }.sorted() == ["Work"],
                "the default zone was never made (nothing was put there); Work was")
        #expect(try zones() == ["Notes", "_defaultZone"])
        // On again: the store's zone is made again and its records uploaded; Notes untouched.
        let on = cli.run(["store", "sync", "on", "--json"])
        #expect(on.status == 0, "\(on.stderr)")
        #expect(try on.json()["saved"] == .int(1))
        #expect(try zones() == ["Notes", "Work", "_defaultZone"])
        #expect(try cli.run(["record", "get", "b", "--zone", "Notes", "--json"]).firstRecord()["fields"]?["t"]?["value"] == .string("2"))
    }
}
