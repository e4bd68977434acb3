import CloudSyncCore
import TestSupport
import Testing

/// `cloudsync share` against a `cloudsync serve` (issue 18): the `shares/…` extension endpoints
/// and the shared owner travel over HTTP.
@Suite("cloudsync share through serve (end to end)")
struct ServeSharingTests {
    @Test func inviteAcceptReadRefusedWriteUpgradeRevokeThroughTheServer() throws {
        let fixture = try ServeFixture()
        let bobToken = fixture.server.run(["token", "create", "--account", "bob", "--cloud", fixture.cloud]).stdout
            .split(separator: "\n").first.map(String.init) ?? ""
        let (homeA, alice) = fixture.client("alice")
        let (homeB, bob) = fixture.client("bob", token: bobToken)
        _ = (homeA, homeB)
        func a(_ arguments: [String]) -> ProcessResult { alice.run(["--account", "alice"] + arguments, device: "a") }
        func b(_ arguments: [String]) -> ProcessResult { bob.run(["--account", "bob"] + arguments, device: "b") }
        let shared = ["--database", "shared", "--zone", "Trips", "--owner", "alice"]

        #expect(a(["zone", "create", "Trips"]).status == 0)
        #expect(a(["record", "save", "Trip", "rome", "--zone", "Trips", "--field", "city=Rome"]).status == 0)
        let created = a(["--json", "share", "create", "--zone", "Trips"])
        #expect(created.status == 0, "\(created.stderr)")
        let url = try #require(try created.json()["url"]?.stringValue)
        #expect(b(["share", "accept", url]).status == 77)
        #expect(a(["share", "add", "--zone", "Trips", "bob"]).status == 0)
        let accepted = b(["share", "accept", url])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let got = b(["--json", "record", "get", "rome"] + shared)
        #expect(got.status == 0, "\(got.stderr)")
        #expect(try got.firstRecord()["fields"]?["city"]?["value"] == .string("Rome"))
        #expect(b(["record", "save", "Trip", "oslo"] + shared).status == 77)
        #expect(a(["share", "add", "--zone", "Trips", "bob", "--permission", "read-write"]).status == 0)
        let saved = b(["record", "save", "Trip", "oslo", "--field", "city=Oslo"] + shared)
        #expect(saved.status == 0, "\(saved.stderr)")
        let fetched = try b(["--json", "fetch-changes", "--database", "shared"]).ndjson()
        #expect(fetched.contains { $0["record"]?["recordName"] == .string("oslo") })
        #expect(a(["share", "remove", "--zone", "Trips", "bob"]).status == 0)
        let after = try b(["--json", "fetch-changes", "--database", "shared"]).ndjson()
        #expect(after.contains { $0["event"] == .string("zoneDeleted") && $0["reason"] == .string("unshared") }, "\(after)")
        #expect(b(["record", "get", "rome"] + shared).status == 3)
        #expect(fixture.stop() == 0)
        #expect(fixture.log.contains("shares/accept bob 200"), "\(fixture.log)")
    }
}
