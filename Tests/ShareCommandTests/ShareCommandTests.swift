import CloudSyncCore
import TestSupport
import Testing

/// `cloudsync share` (issue 18) through the built binary, with two and three accounts:
/// invite, accept, read, refused write, upgrade, write, revoke, notifications. Every scenario
/// runs on one embedded cloud and through `serve`, each account in its own home with its own token.
@Suite("cloudsync share (end to end)")
struct ShareCommandTests {
    let accounts: AccountsCloud

    init(_ backend: AccountsBackend) throws {
        accounts = try AccountsCloud(backend, accounts: ["alice", "bob", "carol", "dave"])
    }

    func run(_ account: String, _ arguments: [String], device: String = "laptop") -> ProcessResult {
        accounts.run(account, arguments, device: device)
    }

    /// Alice's zone Trips with the record rome, shared; returns the share's URL.
    func aliceSharesTrips(_ extra: [String] = []) throws -> String {
        #expect(run("alice", ["zone", "create", "Trips"]).status == 0)
        #expect(run("alice", ["record", "save", "Trip", "rome", "--zone", "Trips", "--field", "city=Rome"]).status == 0)
        let created = try run("alice", ["--json", "share", "create", "--zone", "Trips", "--title", "Our trips"] + extra).json()
        #expect(created["shareID"] == .string("cloudkit.zoneshare"))
        #expect(created["title"] == .string("Our trips"))
        return try #require(created["url"]?.stringValue)
    }

    let shared = ["--database", "shared", "--zone", "Trips", "--owner", "alice"]

    @Test(arguments: AccountsBackend.allCases)
    static func inviteAcceptReadRefusedWriteUpgradeWriteRevoke(_ backend: AccountsBackend) throws {
        try Self(backend).inviteAcceptReadRefusedWriteUpgradeWriteRevoke()
    }

    func inviteAcceptReadRefusedWriteUpgradeWriteRevoke() throws {
        let url = try aliceSharesTrips()
        // An invitation names an account that exists (issue 25): bob has used the cloud.
        #expect(run("bob", ["zone", "list"]).status == 0)
        #expect(run("alice", ["share", "add", "--zone", "Trips", "bob"]).status == 0)
        // Carol is not invited: refused (77), and she can neither read (3) nor write (77).
        let refused = run("carol", ["share", "accept", url])
        #expect(refused.status == 77 && refused.stderr.contains("not invited"))
        #expect(run("carol", ["record", "get", "rome"] + shared).status == 3)
        #expect(run("carol", ["record", "save", "Trip", "x"] + shared).status == 77)
        // Bob accepts and reads.
        let accepted = run("bob", ["share", "accept", url])
        #expect(accepted.status == 0 && accepted.stdout.contains("read-only"))
        let rome = try run("bob", ["--json", "record", "get", "rome"] + shared).firstRecord()
        #expect(rome["fields"]?["city"]?["value"] == .string("Rome"))
        #expect(try run("bob", ["--json", "record", "query", "Trip"] + shared).json()["records"]?.arrayValue?.count == 1)
        // Read-only: 77.
        let denied = run("bob", ["record", "save", "Trip", "oslo", "--field", "city=Oslo"] + shared)
        #expect(denied.status == 77 && denied.stderr.contains("read-only"))
        #expect(run("bob", ["record", "delete", "rome"] + shared).status == 77)
        // Upgraded to read-write: Bob's record is Alice's data, in her private changes.
        #expect(run("alice", ["share", "add", "--zone", "Trips", "bob", "--permission", "read-write"]).status == 0)
        #expect(run("bob", ["record", "save", "Trip", "oslo", "--field", "city=Oslo"] + shared).status == 0)
        let aliceChanges = try run("alice", ["--json", "fetch-changes"]).ndjson()
        #expect(aliceChanges.contains { $0["record"]?["recordName"] == .string("oslo") })
        // ... but not the share itself.
        #expect(run("bob", ["record", "delete", "cloudkit.zoneshare"] + shared).status == 77)
        // Bob's device fetches the shared database: the zone, with its owner.
        let bobFetch = try run("bob", ["--json", "fetch-changes", "--database", "shared"]).ndjson()
        #expect(bobFetch.contains { $0["record"]?["recordName"] == .string("rome") })
        #expect(bobFetch.contains { $0["record"]?["zoneID"]?["zoneName"] == .string("Trips") })
        // The list shows both sides.
        let aliceList = try run("alice", ["--json", "share", "list"]).json()
        let participants = aliceList["owned"]?.arrayValue?.first?["participants"]?.arrayValue ?? []
        #expect(participants.map { $0["accountName"] } == [.string("bob")])
        #expect(participants.first?["acceptanceStatus"] == .string("accepted"))
        #expect(participants.first?["permission"] == .string("read-write"))
        let bobList = try run("bob", ["--json", "share", "list"]).json()
        #expect(bobList["accepted"]?.arrayValue?.first?["owner"]?["accountName"] == .string("alice"))
        // Revoked: Bob's next fetch reports the zone unshared and drops what he cached.
        #expect(run("alice", ["share", "remove", "--zone", "Trips", "bob"]).status == 0)
        let afterRemoval = try run("bob", ["--json", "fetch-changes", "--database", "shared"]).ndjson()
        let gone = try #require(afterRemoval.first { $0["event"] == .string("zoneDeleted") })
        #expect(gone["reason"] == .string("unshared"))
        #expect(gone["droppedRecords"]?.int64Value ?? 0 >= 2)
        #expect(run("bob", ["record", "get", "rome"] + shared).status == 3)
        #expect(run("bob", ["share", "accept", url]).status == 77)
    }

    @Test(arguments: AccountsBackend.allCases)
    static func publicPermissionLeaveAndDeleteWithThreeAccounts(_ backend: AccountsBackend) throws {
        try Self(backend).publicPermissionLeaveAndDeleteWithThreeAccounts()
    }

    func publicPermissionLeaveAndDeleteWithThreeAccounts() throws {
        let url = try aliceSharesTrips(["--public-permission", "read-only"])
        #expect(run("bob", ["share", "accept", url]).status == 0)
        #expect(run("carol", ["share", "accept", url]).status == 0)
        #expect(run("carol", ["record", "save", "Trip", "x"] + shared).status == 77)
        // Bob leaves: only he loses the zone.
        #expect(run("bob", ["share", "leave", "--zone", "Trips", "--owner", "alice"]).status == 0)
        #expect(run("bob", ["record", "get", "rome"] + shared).status == 3)
        #expect(run("carol", ["record", "get", "rome"] + shared).status == 0)
        // Alice stops sharing: Carol loses it, the URL is revoked.
        #expect(run("alice", ["share", "delete", "--zone", "Trips"]).status == 0)
        #expect(run("carol", ["record", "get", "rome"] + shared).status == 3)
        #expect(run("dave", ["share", "accept", url]).status == 77)
        #expect(try run("alice", ["--json", "share", "list"]).json()["owned"] == .array([]))
    }

    @Test(arguments: AccountsBackend.allCases)
    static func participantsAreNotifiedOfTheOwnersAndEachOthersChanges(_ backend: AccountsBackend) throws {
        try Self(backend).participantsAreNotifiedOfTheOwnersAndEachOthersChanges()
    }

    func participantsAreNotifiedOfTheOwnersAndEachOthersChanges() throws {
        let url = try aliceSharesTrips()
        for account in ["bob", "carol"] { #expect(run(account, ["zone", "list"]).status == 0) }
        #expect(run("alice", ["share", "add", "--zone", "Trips", "bob", "carol", "--permission", "read-write"]).status == 0)
        #expect(run("bob", ["share", "accept", url]).status == 0)
        #expect(run("carol", ["share", "accept", url]).status == 0)
        #expect(run("bob", ["subscribe", "create", "--database", "shared", "--id", "shared-trips"], device: "phone").status == 0)
        #expect(run("alice", ["record", "save", "Trip", "paris", "--zone", "Trips", "--field", "city=Paris"]).status == 0)
        let fromOwner = try run("bob", ["--json", "subscribe", "listen", "--timeout", "0"], device: "phone").ndjson()
        #expect(fromOwner.first?["subscriptionID"] == .string("shared-trips"))
        #expect(fromOwner.first?["databaseScope"] == .string("shared"))
        #expect(run("carol", ["record", "save", "Trip", "lima", "--field", "city=Lima"] + shared).status == 0)
        let fromCarol = try run("bob", ["--json", "subscribe", "listen", "--timeout", "0"], device: "phone").ndjson()
        #expect(fromCarol.count == 1)
    }

    @Test(arguments: AccountsBackend.allCases)
    static func badInputGivesOneLineErrors(_ backend: AccountsBackend) throws {
        try Self(backend).badInputGivesOneLineErrors()
    }

    func badInputGivesOneLineErrors() throws {
        _ = try aliceSharesTrips()
        let cases: [([String], Int32, String)] = [
            (["share", "create"], 64, "--zone"),
            (["share", "create", "--zone", "Nope"], 3, "Nope"),
            (["share", "create", "--zone", "Trips", "--public-permission", "everyone"], 64, "everyone"),
            (["share", "add", "--zone", "Trips", "bob", "--permission", "none"], 64, "none"),
            (["share", "remove", "--zone", "Trips", "zed"], 3, "zed"),
            // Issue 25, item 10: an invitation names an account that exists.
            (["share", "add", "--zone", "Trips", "bobb"], 3, "no account named 'bobb'"),
            (["share", "accept", "https://example.com/x"], 65, "share URL"),
            (["share", "leave", "--zone", "Trips"], 64, "--owner"),
            (["share", "create", "--zone", "_defaultZone"], 65, "_defaultZone"),
            (["record", "get", "rome", "--zone", "Trips", "--owner", "bob"], 64, "--database shared"),
            (["record", "get", "rome", "--database", "shared", "--zone", "Trips", "--owner", "nobody"], 3, "nobody"),
        ]
        for (arguments, status, text) in cases {
            let result = run("alice", arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            // The error is one line; usage errors (64) add the usage, as every command does.
            let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.contains(text), "\(arguments): \(result.stderr)")
            #expect(status == 64 || result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }
}
