import CloudSyncCore
import TestSupport
import Testing

/// `subscribe create --database shared --zone Z [--owner OWNER]` (issue 18 follow-up): two owners
/// share a zone named Trips with one participant; his subscription watches one owner's Trips.
@Suite("shared-database zone subscriptions of two owners (end to end)")
struct SharedSubscriptionCommandTests {
    let accounts: AccountsCloud

    init(_ backend: AccountsBackend) throws {
        accounts = try AccountsCloud(backend, accounts: ["alice", "bob", "dave"], environment: [:])
    }

    func run(_ account: String, _ arguments: [String]) -> ProcessResult {
        accounts.run(account, arguments)
    }

    @Test(arguments: AccountsBackend.allCases)
    static func aZoneSubscriptionNamesItsOwner(_ backend: AccountsBackend) throws {
        try Self(backend).aZoneSubscriptionNamesItsOwnerScenario()
    }

    func aZoneSubscriptionNamesItsOwnerScenario() throws {
        #expect(run("bob", ["zone", "create", "Own"]).status == 0)  // registers bob (a read-only command does not)
        for owner in ["alice", "dave"] {
            #expect(run(owner, ["zone", "create", "Trips"]).status == 0)
            let url = try #require(try run(owner, ["--json", "share", "create", "--zone", "Trips"]).json()["url"]?.stringValue)
            #expect(run(owner, ["share", "add", "--zone", "Trips", "bob"]).status == 0)
            #expect(run("bob", ["share", "accept", url]).status == 0)
        }
        let ambiguous = run("bob", ["subscribe", "create", "--database", "shared", "--zone", "Trips"])
        #expect(ambiguous.status != 0 && ambiguous.stderr.contains("--owner"), "\(ambiguous.stderr)")
        let created = run("bob", ["--json", "subscribe", "create", "--database", "shared", "--zone", "Trips", "--owner", "alice",
                                  "--id", "alice-trips"])
        #expect(created.status == 0, "\(created.stderr)")
        let owner = try created.json()["subscription"]?["zoneID"]?["ownerRecordName"]?.stringValue
        #expect(owner?.hasPrefix("_") == true, "\(created.stdout)")

        // Dave's change of his Trips does not wake Bob; Alice's does.
        #expect(run("dave", ["record", "save", "Trip", "bergen", "--zone", "Trips", "--field", "city=Bergen"]).status == 0)
        #expect(run("bob", ["subscribe", "listen", "--once", "--timeout", "1"]).status == 75)
        #expect(run("alice", ["record", "save", "Trip", "paris", "--zone", "Trips", "--field", "city=Paris"]).status == 0)
        let woken = run("bob", ["--json", "subscribe", "listen", "--once", "--timeout", "10"])
        #expect(woken.status == 0, "\(woken.stderr)")
        #expect(woken.stdout.contains("alice-trips") && woken.stdout.contains(owner ?? "?"), "\(woken.stdout)")
    }
}
