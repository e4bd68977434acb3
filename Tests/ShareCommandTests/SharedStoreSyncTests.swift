import CloudSyncCore
import TestSupport
import Testing

/// `store config shared-zones on` (issue 18): a participant's `store sync` includes the zones
/// shared with them, in a local store per owner (`store … --owner OWNER`).
@Suite("store sync of shared zones (end to end)")
struct SharedStoreSyncTests {
    let accounts: AccountsCloud

    init(_ backend: AccountsBackend) throws {
        accounts = try AccountsCloud(backend, accounts: ["alice", "bob"], environment: [:])
    }

    func run(_ account: String, _ arguments: [String], device: String = "laptop") -> ProcessResult {
        accounts.run(account, arguments, device: device)
    }

    func city(_ account: String, _ name: String, owner: String? = nil) throws -> String? {
        let result = run(account, ["--json", "store", "get", name, "--zone", "Trips"] + (owner.map { ["--owner", $0] } ?? []))
        guard result.status == 0 else { return nil }
        let json = try result.json()
        let record = json["records"]?.arrayValue?.first ?? json
        return record["fields"]?["city"]?["value"]?.stringValue
    }

    @Test(arguments: AccountsBackend.allCases)
    static func ownerAndParticipantEditsConvergeWithTheConflictLogged(_ backend: AccountsBackend) throws {
        try Self(backend).ownerAndParticipantEditsConvergeWithTheConflictLoggedScenario()
    }

    func ownerAndParticipantEditsConvergeWithTheConflictLoggedScenario() throws {
        #expect(run("alice", ["store", "put", "Trip", "rome", "--zone", "Trips", "--create-zone", "--field", "city=Rome"]).status == 0)
        let aliceOn = run("alice", ["store", "sync", "on"])
        #expect(aliceOn.status == 0, "\(aliceOn.stderr)")
        let url = try #require(try run("alice", ["--json", "share", "create", "--zone", "Trips"]).json()["url"]?.stringValue)
        #expect(run("bob", ["zone", "list"]).status == 0)
        #expect(run("alice", ["share", "add", "--zone", "Trips", "bob", "--permission", "read-write"]).status == 0)
        #expect(run("bob", ["share", "accept", url]).status == 0)
        #expect(run("bob", ["store", "config", "shared-zones", "on"]).status == 0)
        let bobOn = run("bob", ["store", "sync", "on"])
        #expect(bobOn.status == 0, "\(bobOn.stderr)")
        #expect(try city("bob", "rome", owner: "alice") == "Rome")
        #expect(try city("bob", "rome") == nil, "the shared zone is not in bob's own store")

        // Both edit rome before syncing; bob also adds a record.
        #expect(run("alice", ["store", "put", "Trip", "rome", "--zone", "Trips", "--field", "city=ROME"]).status == 0)
        #expect(run("bob", ["store", "put", "Trip", "rome", "--zone", "Trips", "--owner", "alice", "--field", "city=Roma"]).status == 0)
        #expect(run("bob", ["store", "put", "Trip", "oslo", "--zone", "Trips", "--owner", "alice", "--field", "city=Oslo"]).status == 0)
        #expect(run("alice", ["store", "sync"]).status == 0)
        let bobSync = run("bob", ["--json", "store", "sync"])
        #expect(bobSync.status == 0, "\(bobSync.stderr)")
        #expect(try bobSync.json()["conflicts"]?.arrayValue?.isEmpty == false, "\(bobSync.stdout)")
        #expect(run("alice", ["store", "sync"]).status == 0)
        #expect(run("bob", ["store", "sync"]).status == 0)
        let merged = try city("alice", "rome")
        let bobsCopy = try city("bob", "rome", owner: "alice")
        #expect(merged != nil && merged == bobsCopy)
        #expect(try city("alice", "oslo") == "Oslo")
        let logged = try run("bob", ["--json", "store", "conflicts", "--owner", "alice"]).json()
        #expect((logged["conflicts"]?.arrayValue?.count ?? 0) >= 1, "\(logged)")

        // Unshared: bob's next sync drops the zone from his local store of alice's zones.
        #expect(run("alice", ["share", "remove", "--zone", "Trips", "bob"]).status == 0)
        #expect(run("bob", ["store", "sync"]).status == 0)
        #expect(try city("bob", "rome", owner: "alice") == nil)
        let kept = try city("alice", "rome")
        #expect(kept == merged)
    }
}

/// A zone unshared while the participant had unpushed edits in it: the same `store sync` drops
/// the zone (and says so) instead of failing with 77 on the refused push.
@Suite("store sync of a zone just unshared (end to end)")
struct SharedStoreUnsharedPushTests {
    let accounts: AccountsCloud

    init(_ backend: AccountsBackend) throws {
        accounts = try AccountsCloud(backend, accounts: ["alice", "bob"], environment: [:])
    }

    func run(_ account: String, _ arguments: [String]) -> ProcessResult {
        accounts.run(account, arguments)
    }

    func field(_ account: String, _ name: String, zone: String, owner: String? = nil) throws -> String? {
        let result = run(account, ["--json", "store", "get", name, "--zone", zone] + (owner.map { ["--owner", $0] } ?? []))
        guard result.status == 0 else { return nil }
        let json = try result.json()
        let record = json["records"]?.arrayValue?.first ?? json
        return record["fields"]?["city"]?["value"]?.stringValue
    }

    @Test(arguments: AccountsBackend.allCases)
    static func aPushToAZoneJustUnsharedDropsItInTheSameRun(_ backend: AccountsBackend) throws {
        try Self(backend).aPushToAZoneJustUnsharedDropsItInTheSameRunScenario()
    }

    func aPushToAZoneJustUnsharedDropsItInTheSameRunScenario() throws {
        #expect(run("alice", ["store", "put", "Trip", "rome", "--zone", "Trips", "--create-zone", "--field", "city=Rome"]).status == 0)
        #expect(run("alice", ["store", "put", "Trip", "oslo", "--zone", "Notes", "--create-zone", "--field", "city=Oslo"]).status == 0)
        #expect(run("alice", ["store", "sync", "on"]).status == 0)
        #expect(run("bob", ["zone", "list"]).status == 0)
        for zone in ["Trips", "Notes"] {
            let url = try #require(try run("alice", ["--json", "share", "create", "--zone", zone]).json()["url"]?.stringValue)
            #expect(run("alice", ["share", "add", "--zone", zone, "bob", "--permission", "read-write"]).status == 0)
            #expect(run("bob", ["share", "accept", url]).status == 0)
        }
        #expect(run("bob", ["store", "config", "shared-zones", "on"]).status == 0)
        #expect(run("bob", ["store", "sync", "on"]).status == 0)
        #expect(try field("bob", "rome", zone: "Trips", owner: "alice") == "Rome")

        // Bob edits Trips; alice takes Trips from him (Notes stays shared) before he syncs.
        #expect(run("bob", ["store", "put", "Trip", "rome", "--zone", "Trips", "--owner", "alice", "--field", "city=Roma"]).status == 0)
        #expect(run("alice", ["share", "remove", "--zone", "Trips", "bob"]).status == 0)
        let sync = run("bob", ["store", "sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.contains("Trips") && sync.stderr.contains("no longer shared"), "\(sync.stderr)")
        #expect(try field("bob", "rome", zone: "Trips", owner: "alice") == nil)
        #expect(try field("bob", "oslo", zone: "Notes", owner: "alice") == "Oslo")
        let again = run("bob", ["store", "sync"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(run("alice", ["store", "sync"]).status == 0)
        #expect(try field("alice", "rome", zone: "Trips") == "Rome", "bob's refused edit never reached alice")
    }
}
