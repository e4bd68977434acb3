import CloudSyncCore
import TestSupport
import Testing

/// Issue 30 item 3: `store put` never starts a zone by a typo, and names the nearest zone,
/// record type and field.
@Suite("store put zones and names (end to end)")
struct StorePutZoneTests {
    let home = TemporaryDirectory("store-put-zone")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }

    @Test func aNewZoneNeedsCreateZone() {
        #expect(cli.run(["store", "put", "Note", "a", "--field", "title=Hi"]).status == 0, "the default zone needs nothing")
        let fresh = cli.run(["store", "put", "Note", "b", "--zone", "Notes", "--field", "title=Hi"])
        #expect(fresh.status == 3, "\(fresh.stderr)")
        #expect(fresh.stderr.contains("--create-zone"), "\(fresh.stderr)")
        #expect(cli.run(["store", "put", "Note", "b", "--zone", "Notes", "--field", "title=Hi", "--create-zone"]).status == 0)
        for typo in ["Ntoes", "notes"] {
            let put = cli.run(["store", "put", "Note", "c", "--zone", typo, "--field", "title=Hi"])
            #expect(put.status == 3, "\(typo): \(put.stderr)")
            #expect(put.stderr.contains("no zone '\(typo)'") && put.stderr.contains("Did you mean 'Notes'?"), "\(put.stderr)")
        }
        #expect(cli.run(["store", "put", "Note", "c", "--zone", "Notes", "--field", "title=Hi"]).status == 0)
        #expect(cli.run(["store", "get", "c", "--zone", "Notes"]).status == 0)
        #expect(cli.run(["store", "get", "c", "--zone", "Ntoes"]).status != 0, "nothing was written to the typo")
    }

    @Test func aZoneFetchedFromTheCloudIsKnown() {
        #expect(cli.run(["zone", "create", "Work"]).status == 0)
        #expect(cli.run(["store", "put", "Note", "a", "--zone", "Work", "--field", "title=Hi"]).status == 3, "not fetched yet")
        #expect(cli.run(["fetch-changes"]).status == 0)
        let put = cli.run(["store", "put", "Note", "a", "--zone", "Work", "--field", "title=Hi"])
        #expect(put.status == 0, "\(put.stderr)")
    }

    @Test func aNewTypeOrFieldCloseToAKnownOneIsWarnedOf() {
        #expect(cli.run(["store", "put", "Note", "a", "--field", "title=Hi"]).status == 0)
        let type = cli.run(["store", "put", "Noet", "b", "--field", "title=Hi"])
        #expect(type.status == 0, "a new type is allowed: \(type.stderr)")
        #expect(type.stderr.contains("'Noet' is a new record type") && type.stderr.contains("Did you mean 'Note'?"), "\(type.stderr)")
        let field = cli.run(["store", "put", "Note", "c", "--field", "titel=Hi"])
        #expect(field.status == 0, "\(field.stderr)")
        #expect(field.stderr.contains("'titel' is a new field of Note") && field.stderr.contains("Did you mean 'title'?"), "\(field.stderr)")
        let fine = cli.run(["store", "put", "Note", "d", "--field", "title=Hi"])
        #expect(fine.stderr.isEmpty, "\(fine.stderr)")
    }
}
