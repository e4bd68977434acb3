import CloudSyncCore
import TestSupport
import Testing

@Suite("cloudsync zone (end to end)")
struct ZoneCommandTests {
    let home = TemporaryDirectory("zone-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func createListAndIdempotence() throws {
        let created = cli.run(["zone", "create", "Notes", "Photos", "--atomic", "--json"])
        #expect(created.status == 0, "\(created.stderr)")
        let zones = try #require(try created.json()["zones"]?.arrayValue)
        #expect(zones.map { $0["zoneID"]?["zoneName"]?.stringValue } == ["Notes", "Photos"])
        #expect(zones[0]["capabilities"] == .array([.string("FETCH_CHANGES"), .string("ATOMIC")]))
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        let listed = try cli.run(["zone", "list", "--json"]).json()
        #expect(listed["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } == ["_defaultZone", "Notes", "Photos"])
        let text = cli.run(["zone", "list"])
        #expect(text.stdout.contains("Notes") && text.stdout.contains("RECORDS"))
    }

    @Test func zonesArePerAccount() throws {
        #expect(cli.run(["zone", "create", "Mine"]).status == 0)
        let bob = try cli.run(["--account", "bob", "zone", "list", "--json"]).json()
        #expect(bob["zones"]?.arrayValue?.count == 1)
    }

    @Test func customZonesOnlyInPrivateDatabase() {
        let result = cli.run(["zone", "create", "Pub", "--database", "public"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("private"))
        #expect(cli.run(["zone", "create", "X", "--database", "nowhere"]).status == 64)
        #expect(cli.run(["zone", "create", "bad name"]).status == 65)
    }

    @Test func deleteNeedsYesWithoutATerminal() throws {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "t=x"]).status == 0)
        let refused = cli.run(["zone", "delete", "Notes"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--yes"))
        #expect(cli.run(["record", "get", "n1", "--zone", "Notes"]).status == 0, "nothing was deleted")
        #expect(cli.run(["zone", "delete", "Notes", "--yes"]).status == 0)
        #expect(cli.run(["record", "get", "n1", "--zone", "Notes"]).status == 3)
        #expect(cli.run(["zone", "delete", "Notes", "--yes"]).status == 3)
        #expect(cli.run(["zone", "delete", "_defaultZone", "--yes"]).status == 65)
    }

    @Test func purgedZoneIsUserDeletedZone() throws {
        #expect(cli.run(["zone", "create", "App"]).status == 0)
        #expect(cli.run(["zone", "delete", "App", "--purge", "--yes"]).status == 0)
        let save = cli.run(["record", "save", "Note", "--zone", "App", "--field", "t=x", "--json"])
        #expect(save.status == 3)
        #expect(try save.errorJSON()["error"]?["serverErrorCode"]?.stringValue == "ZONE_NOT_FOUND")
        #expect(try save.errorJSON()["error"]?["ckErrorCode"]?.stringValue == "userDeletedZone")
    }

    @Test func corruptCloudFileIsReportedAndUntouched() throws {
        let junk = String(repeating: "not a database ", count: 500)
        let path = home.write("cloud.sqlite", junk)
        let result = cli.run(["zone", "list"])
        #expect(result.status == 69)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("not a cloudsync database"))
        #expect(TemporaryDirectory.readBytes(path) == Array(junk.utf8))
        let json = cli.run(["zone", "list", "--json"])
        #expect(try json.errorJSON()["error"]?["serverErrorCode"]?.stringValue == "BAD_REQUEST")
        #expect(try json.errorJSON()["error"]?["ckErrorCode"]?.stringValue == "badDatabase")
    }

    @Test func unknownFlagsAndSubcommands() {
        let flag = cli.run(["zone", "list", "--atomc"])
        #expect(flag.status == 64)
        let typo = cli.run(["zone", "creat", "X"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("create"))
        let help = cli.run(["zone", "create", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--atomic"))
    }

    @Test func malformedCloudURL() {
        let result = cli.run(["--cloud", "sqlite://relative/path", "zone", "list"])
        #expect(result.status == 65 || result.status == 64)
        #expect(result.stderr.contains("sqlite:///"))
        let pg = cli.run(["--cloud", "postgres://localhost/db", "zone", "list"])
        #expect(pg.status == 69)
    }
}
