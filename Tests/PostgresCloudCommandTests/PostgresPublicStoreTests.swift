import CloudSyncCore
import TestSupport
import Testing

/// The public store (issue 18) with `--cloud postgres://…`: two accounts mirror one type.
@Suite("store --database public on PostgreSQL (end to end)")
struct PostgresPublicStoreTests {
    @Test func twoAccountsMirrorAndAnotherAccountsEditIsRefused() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        func run(_ account: String, _ arguments: [String]) -> ProcessResult { cli.run(["--account", account] + arguments) }
        for account in ["alice", "bob"] {
            #expect(run(account, ["store", "sync", "on"]).status == 0)
            #expect(run(account, ["store", "config", "public-types", "Post"]).status == 0)
        }
        #expect(run("alice", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Hello"]).status == 0)
        let pushed = run("alice", ["--json", "store", "sync", "--database", "public"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try pushed.json()["saved"] == .int(1))
        let pulled = run("bob", ["--json", "store", "sync", "--database", "public"])
        #expect(try pulled.json()["pulledChanges"] == .int(1), "\(pulled.stderr)")
        #expect(run("bob", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Bob"]).status == 0)
        let refused = run("bob", ["store", "sync", "--database", "public"])
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(run("alice", ["store", "delete", "p1", "--database", "public"]).status == 0)
        #expect(run("alice", ["store", "sync", "--database", "public"]).status == 0)
        // bob's pending edit of the record alice deleted meets the merge policy as in the
        // private store: the edit is kept over the deletion, so it is saved anew, as bob's.
        let kept = run("bob", ["--json", "store", "sync", "--database", "public", "--full-scan"])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(try kept.json()["saved"] == .int(1))
        #expect(try kept.json()["conflicts"]?.arrayValue?.first?["resolution"]?.stringValue?.contains("kept") == true)
        let alice = run("alice", ["--json", "store", "sync", "--database", "public"])
        #expect(try alice.json()["pulledChanges"] == .int(1), "\(alice.stderr)")
    }
}
