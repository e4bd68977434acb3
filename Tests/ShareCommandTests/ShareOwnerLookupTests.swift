import CloudSyncCore
import TestSupport
import Testing

/// `--owner LOGIN` (issue 18 follow-up): a login is resolved only between accounts that have a
/// share, so a stranger cannot tell an existing login from a missing one.
@Suite("--owner does not reveal logins to strangers (end to end)")
struct ShareOwnerLookupTests {
    let accounts: AccountsCloud

    init(_ backend: AccountsBackend) throws {
        accounts = try AccountsCloud(backend, accounts: ["alice", "bob", "carol"], environment: [:])
    }

    func run(_ account: String, _ arguments: [String]) -> ProcessResult {
        accounts.run(account, arguments)
    }

    @Test(arguments: AccountsBackend.allCases)
    static func aStrangerCannotTellAnExistingLoginFromAMissingOne(_ backend: AccountsBackend) throws {
        try Self(backend).aStrangerCannotTellAnExistingLoginFromAMissingOneScenario()
    }

    func aStrangerCannotTellAnExistingLoginFromAMissingOneScenario() throws {
        #expect(run("alice", ["zone", "create", "Trips"]).status == 0)
        #expect(run("alice", ["record", "save", "Trip", "rome", "--zone", "Trips", "--field", "city=Rome"]).status == 0)
        let url = try #require(try run("alice", ["--json", "share", "create", "--zone", "Trips"]).json()["url"]?.stringValue)
        #expect(run("bob", ["zone", "list"]).status == 0)
        #expect(run("alice", ["share", "add", "--zone", "Trips", "bob"]).status == 0)
        #expect(run("bob", ["share", "accept", url]).status == 0)
        let shared = ["--database", "shared", "--zone", "Trips"]
        #expect(run("bob", ["record", "get", "rome", "--owner", "alice"] + shared).status == 0)

        #expect(run("carol", ["zone", "list"]).status == 0)
        let existing = run("carol", ["record", "get", "rome", "--owner", "alice"] + shared)
        let missing = run("carol", ["record", "get", "rome", "--owner", "zed"] + shared)
        #expect(existing.status == 3 && missing.status == 3)
        #expect(existing.stderr.split(separator: "alice", omittingEmptySubsequences: false).joined(separator: "zed") == missing.stderr,
                "\(existing.stderr) / \(missing.stderr)")
        #expect(existing.stderr.contains("shares a zone with you"), "\(existing.stderr)")
        // Writing: 77 either way, as for a zone not shared with you.
        #expect(run("carol", ["record", "save", "Trip", "x", "--owner", "alice"] + shared).status == 77)
        #expect(run("carol", ["record", "save", "Trip", "x", "--owner", "zed"] + shared).status == 77)
    }
}
