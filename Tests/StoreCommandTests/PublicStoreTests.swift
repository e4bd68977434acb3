import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `store … --database public` (issue 18, seed 002): two accounts mirror the same public type
/// through the built binary; edits, deletions and refusals behave as in the private store.
@Suite("store --database public (end to end)")
struct PublicStoreTests {
    let home = TemporaryDirectory("public-store-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func run(_ account: String, _ arguments: [String], device: String = "laptop") -> ProcessResult {
        cli.run(["--account", account] + arguments, device: device)
    }

    /// Sync on and `Post` mirrored, for each account.
    func setUp(_ accounts: String...) {
        for account in accounts {
            #expect(run(account, ["store", "sync", "on"]).status == 0)
            #expect(run(account, ["store", "config", "public-types", "Post"]).status == 0)
        }
    }

    func sync(_ account: String, _ extra: [String] = [], device: String = "laptop") throws -> JSONValue {
        let result = run(account, ["--json", "store", "sync", "--database", "public"] + extra, device: device)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.json()
    }

    func publicRecords(_ account: String) throws -> [String: String] {
        let records = try run(account, ["--json", "store", "query", "Post", "--database", "public"]).json()["records"]?.arrayValue ?? []
        var byName: [String: String] = [:]
        for record in records {
            byName[record["recordName"]?.stringValue ?? ""] = record["fields"]?["title"]?["value"]?.stringValue ?? ""
        }
        return byName
    }

    @Test func twoAccountsMirrorOneTypeEditsAndDeletesFollow() throws {
        setUp("alice", "bob")
        #expect(run("alice", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Hello"]).status == 0)
        #expect(run("alice", ["store", "put", "Post", "p2", "--database", "public", "--field", "title=Two"]).status == 0)
        #expect(try sync("alice")["saved"] == .int(2))
        let first = try sync("bob")
        #expect(first["pulledChanges"] == .int(2) && first["database"] == .string("public"))
        #expect(try publicRecords("bob") == ["p1": "Hello", "p2": "Two"])
        // The cloud copy is in the public database, readable by anyone.
        let cloudCopy = run("bob", ["--json", "record", "get", "p1", "--database", "public"])
        #expect(cloudCopy.status == 0 && cloudCopy.stdout.contains("Hello"), "\(cloudCopy.stderr)")

        #expect(run("alice", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Edited"]).status == 0)
        #expect(try sync("alice")["saved"] == .int(1))
        #expect(try sync("bob")["pulledChanges"] == .int(1))
        #expect(try publicRecords("bob")["p1"] == "Edited")

        // A deletion upstream shows at the next full scan (forced here; by default hourly).
        #expect(run("alice", ["store", "delete", "p2", "--database", "public"]).status == 0)
        #expect(try sync("alice")["deleted"] == .int(1))
        #expect(try sync("bob")["pulledDeletions"] == .int(0))
        let scanned = try sync("bob", ["--full-scan"])
        #expect(scanned["pulledDeletions"] == .int(1) && scanned["scannedTypes"] == .array([.string("Post")]))
        #expect(try publicRecords("bob") == ["p1": "Edited"])
        // With public-scan-interval 0 every sync scans.
        #expect(run("bob", ["store", "config", "public-scan-interval", "0"]).status == 0)
        #expect(try sync("bob")["scannedTypes"] == .array([.string("Post")]))
    }

    @Test func publicAndPrivateDataNeverMix() throws {
        setUp("alice")
        #expect(run("alice", ["store", "put", "Post", "pub", "--database", "public", "--field", "title=Public"]).status == 0)
        #expect(run("alice", ["store", "put", "Post", "priv", "--field", "title=Private"]).status == 0)
        #expect(run("alice", ["store", "sync"]).status == 0)
        _ = try sync("alice")
        // Private store and private database: only the private record; public: only the public one.
        #expect(try publicRecords("alice") == ["pub": "Public"])
        let privateLocal = try run("alice", ["--json", "store", "query", "Post"]).json()["records"]?.arrayValue ?? []
        #expect(privateLocal.compactMap { $0["recordName"]?.stringValue } == ["priv"])
        let inPublic = try run("alice", ["--json", "record", "query", "Post", "--database", "public"]).json()["records"]?.arrayValue ?? []
        #expect(inPublic.compactMap { $0["recordName"]?.stringValue } == ["pub"])
        #expect(run("alice", ["record", "get", "pub", "--zone", "com.apple.coredata.cloudkit.zone"]).status == 3)
        // Another device of the account pulls each into its own store (the types are per device).
        #expect(run("alice", ["store", "config", "public-types", "Post"], device: "phone").status == 0)
        #expect(run("alice", ["store", "sync"], device: "phone").status == 0)
        _ = try sync("alice", device: "phone")
        #expect(try run("alice", ["--json", "store", "query", "Post"], device: "phone").json()["records"]?.arrayValue?.count == 1)
        #expect(try run("alice", ["--json", "store", "query", "Post", "--database", "public"], device: "phone")
            .json()["records"]?.arrayValue?.first?["recordName"] == .string("pub"))
    }

    @Test func editingAnotherAccountsRecordIsRefusedAndStaysPending() throws {
        setUp("alice", "bob")
        #expect(run("alice", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Alice's"]).status == 0)
        _ = try sync("alice")
        _ = try sync("bob")
        #expect(run("bob", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Bob's"]).status == 0)
        let refused = run("bob", ["store", "sync", "--database", "public"])
        #expect(refused.status == 77, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("can be changed only by its creator") && refused.stderr.contains("stays pending"), "\(refused.stderr)")
        let json = run("bob", ["--json", "store", "sync", "--database", "public"])
        #expect(json.status == 77)
        #expect(try json.errorJSON()["error"]?["serverErrorCode"] == .string("ACCESS_DENIED"), "\(json.stderr)")
        #expect(try json.json()["failures"]?.arrayValue?.first?["recordName"] == .string("p1"))
        // Kept pending, logged unresolved, the cloud untouched.
        let got = try run("bob", ["--json", "store", "get", "p1", "--database", "public"]).firstRecord()
        #expect(got["pending"] == .bool(true))
        let status = try run("bob", ["--json", "store", "status", "--database", "public"]).json()
        #expect(status["pending"] == .int(1) && status["unresolvedConflicts"] != .int(0))
        let cloud = run("bob", ["--json", "record", "get", "p1", "--database", "public"])
        #expect(cloud.stdout.contains("Alice's") && !cloud.stdout.contains("Bob's"))
        // Deleting it is refused the same way; bob's own records go through.
        #expect(run("bob", ["store", "put", "Post", "b1", "--database", "public", "--field", "title=Bob's own"]).status == 0)
        let mixed = run("bob", ["--json", "store", "sync", "--database", "public"])
        #expect(mixed.status == 77)
        #expect(try mixed.json()["saved"] == .int(1))
        #expect(try sync("alice")["pulledChanges"] == .int(1))
        #expect(try publicRecords("alice") == ["p1": "Alice's", "b1": "Bob's own"])
        // The private store knows nothing of it.
        #expect(try run("bob", ["--json", "store", "status"]).json()["pending"] == .int(0))
        // The way out: store revert takes the cloud's version and the sync goes through.
        #expect(refused.stderr.contains("store revert p1 --database public"), "\(refused.stderr)")
        let reverted = run("bob", ["--json", "store", "revert", "p1", "--database", "public"])
        #expect(reverted.status == 0, "\(reverted.stderr)")
        #expect(try reverted.json()["restored"] == .array([.string("p1")]))
        #expect(try publicRecords("bob")["p1"] == "Alice's")
        let clean = run("bob", ["--json", "store", "sync", "--database", "public"])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(try clean.json()["pending"] == .int(0))
        #expect(try run("bob", ["--json", "store", "conflicts", "--unresolved", "--database", "public"]).json()["conflicts"] == .array([]))
        // A record the cloud never had is removed; an unknown name is 3; the private store is 64.
        #expect(run("bob", ["store", "put", "Post", "local-only", "--database", "public", "--field", "title=x"]).status == 0)
        let removed = run("bob", ["--json", "store", "revert", "local-only", "--database", "public"])
        #expect(try removed.json()["removed"] == .array([.string("local-only")]), "\(removed.stderr)")
        #expect(try publicRecords("bob")["local-only"] == nil)
        #expect(run("bob", ["store", "revert", "nothing", "--database", "public"]).status == 3)
        #expect(run("bob", ["store", "revert", "p1"]).status == 64)
    }

    /// A refused edit that the creator's newer edit then replaces (merge policy fields, the
    /// cloud's change newer) waits no more: the sync succeeds and the refusal is resolved.
    @Test func aRefusedEditTheCreatorSupersedesIsSettled() throws {
        setUp("alice", "bob")
        #expect(run("alice", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=First"]).status == 0)
        _ = try sync("alice")
        _ = try sync("bob")
        #expect(run("bob", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Bob's"]).status == 0)
        #expect(run("alice", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Newer"]).status == 0)
        _ = try sync("alice")
        let settled = run("bob", ["--json", "store", "sync", "--database", "public"])
        #expect(settled.status == 0, "\(settled.stderr)")
        #expect(try settled.json()["failures"] == .array([]) && settled.json()["pending"] == .int(0))
        #expect(try publicRecords("bob")["p1"] == "Newer")
        let unresolved = try run("bob", ["--json", "store", "conflicts", "--unresolved", "--database", "public"]).json()
        #expect(unresolved["conflicts"] == .array([]), "\(unresolved)")
        let status = try run("bob", ["--json", "store", "status", "--database", "public"]).json()
        #expect(status["publicTypes"]?.arrayValue?.first?["recordType"] == .string("Post"))
    }

    /// A replaced cloud (new store epoch): the account's own public records are uploaded again,
    /// not deleted by the next scan as "gone upstream"; other accounts' records are dropped
    /// until the new cloud has them.
    @Test func aReplacedCloudReuploadsTheAccountsOwnRecords() throws {
        setUp("alice", "bob")
        #expect(run("alice", ["store", "put", "Post", "a1", "--database", "public", "--field", "title=Alice's"]).status == 0)
        #expect(run("bob", ["store", "put", "Post", "b1", "--database", "public", "--field", "title=Bob's"]).status == 0)
        _ = try sync("alice")
        _ = try sync("bob")
        _ = try sync("alice")
        #expect(try publicRecords("bob") == ["a1": "Alice's", "b1": "Bob's"])
        for suffix in ["", "-wal", "-shm"] { unlink(home.file("cloud.sqlite" + suffix)) }
        for account in ["alice", "bob"] { #expect(run(account, ["store", "sync", "on"]).status == 0) }
        let bob = try sync("bob")
        #expect(bob["events"]?.arrayValue?.first?["event"] == .string("epochChanged"), "\(bob)")
        #expect(bob["saved"] == .int(1) && bob["pulledDeletions"] == .int(0))
        #expect(try publicRecords("bob") == ["b1": "Bob's"])
        let alice = try sync("alice")
        #expect(alice["saved"] == .int(1) && alice["pulledChanges"] == .int(1), "\(alice)")
        #expect(try publicRecords("alice") == ["a1": "Alice's", "b1": "Bob's"])
        #expect(try sync("bob")["pulledChanges"] == .int(1))
        #expect(try publicRecords("bob") == ["a1": "Alice's", "b1": "Bob's"])
    }

    @Test func usageMistakesAreClear() {
        #expect(run("alice", ["store", "sync", "on"]).status == 0)
        let noTypes = run("alice", ["store", "sync", "--database", "public"])
        #expect(noTypes.status == 64 && noTypes.stderr.contains("store config public-types"), "\(noTypes.stderr)")
        let sharedNoOwner = run("alice", ["store", "get", "x", "--database", "shared"])
        #expect(sharedNoOwner.status == 64 && sharedNoOwner.stderr.contains("add --owner OWNER"), "\(sharedNoOwner.stderr)")
        let publicWithOwner = run("alice", ["store", "get", "x", "--database", "public", "--owner", "bob"])
        #expect(publicWithOwner.status == 64 && publicWithOwner.stderr.contains("no owner"), "\(publicWithOwner.stderr)")
        // --database shared --owner is the owner's shared-zone store, as --owner alone.
        let sharedStore = run("alice", ["store", "get", "x", "--database", "shared", "--owner", "bob"])
        let ownerStore = run("alice", ["store", "get", "x", "--owner", "bob"])
        #expect(sharedStore.status == ownerStore.status && sharedStore.stderr == ownerStore.stderr,
                "\(sharedStore.stderr) vs \(ownerStore.stderr)")
        #expect(run("alice", ["store", "put", "Post", "x", "--database", "public", "--zone", "Other", "--field", "a=1"]).status == 64)
        #expect(run("alice", ["store", "put", "Post", "x", "--database", "public", "--encrypt", "a", "--field", "a=1"]).status == 64)
        #expect(run("alice", ["store", "sync", "--full-scan"]).status == 64)
        #expect(run("alice", ["store", "sync", "off", "--database", "public"]).status == 64)
        #expect(run("alice", ["store", "config", "public-types", "9bad"]).status != 0)
        #expect(run("alice", ["store", "config", "public-scan-interval", "-1"]).status == 64)
        #expect(run("alice", ["store", "config", "nonsense", "x"]).status == 64)
        let config = run("alice", ["store", "config", "public-types", "Post", "Comment"])
        #expect(config.stdout == "public-types = Comment Post\n", "\(config.stdout)")
        #expect(run("alice", ["store", "config", "public-types"]).stdout == "Comment Post\n")
        #expect(run("alice", ["store", "config", "public-types", "none"]).stdout == "public-types = none\n")
    }

    /// Under a production schema the mirror's query needs `___modTime SORTABLE` (a range on
    /// modificationDate and the sort by it); the error names the index. Like every store type,
    /// a mirrored type also needs the sync engine's `CD_editedAt TIMESTAMP`.
    @Test func productionNeedsTheModificationTimeIndex() throws {
        let prod = ["--environment", "production"]
        func deploy(_ text: String) {
            let file = home.write("public.ckdb", text)
            #expect(run("alice", ["schema", "import", file]).status == 0)
            #expect(run("alice", ["schema", "deploy"]).status == 0)
        }
        let grants = #"GRANT WRITE TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "_world""#
        deploy("DEFINE SCHEMA RECORD TYPE Post (title STRING, \"CD_editedAt\" TIMESTAMP, \(grants));")
        for account in ["alice", "bob"] {
            #expect(run(account, prod + ["store", "sync", "on"]).status == 0)
            #expect(run(account, prod + ["store", "config", "public-types", "Post"]).status == 0)
        }
        #expect(run("alice", prod + ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Hi"]).status == 0)
        let refused = run("alice", prod + ["store", "sync", "--database", "public"])
        #expect(refused.status == 65 && refused.stderr.contains("'___modTime SORTABLE'"), "\(refused.stderr)")
        deploy("DEFINE SCHEMA RECORD TYPE Post (\"___modTime\" TIMESTAMP SORTABLE, title STRING, \"CD_editedAt\" TIMESTAMP, \(grants));")
        let pushed = run("alice", prod + ["--json", "store", "sync", "--database", "public"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        // The refused sync had pushed p1 already (push comes before the pull); nothing is left.
        #expect(try pushed.json()["pending"] == .int(0))
        let pulled = run("bob", prod + ["--json", "store", "sync", "--database", "public"])
        #expect(try pulled.json()["pulledChanges"] == .int(1), "\(pulled.stderr)")
        #expect(run("bob", prod + ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Bob"]).status == 0)
        #expect(run("bob", prod + ["store", "sync", "--database", "public"]).status == 77)
    }

    @Test func aQuerySubscriptionWakesTheOtherAccountsListener() throws {
        setUp("alice", "bob")
        _ = try sync("bob")
        let subscriptions = run("bob", ["--json", "subscribe", "list", "--database", "public"])
        #expect(subscriptions.stdout.contains("cloudsync-public-Post"), "\(subscriptions.stdout)\(subscriptions.stderr)")
        // Register bob's laptop as a listener, then alice saves a Post.
        #expect([0, 75].contains(run("bob", ["subscribe", "listen", "--once", "--timeout", "0"]).status))
        #expect(run("alice", ["store", "put", "Post", "p9", "--database", "public", "--field", "title=Wake"]).status == 0)
        _ = try sync("alice")
        let woken = run("bob", ["--json", "subscribe", "listen", "--once", "--timeout", "5"])
        #expect(woken.status == 0, "\(woken.stderr)")
        #expect(woken.stdout.contains("cloudsync-public-Post"), "\(woken.stdout)")
        #expect(try sync("bob")["pulledChanges"] == .int(1))
    }
}
