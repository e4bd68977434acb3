import CloudSyncCore
import TestSupport
import Testing

/// Two accounts in two homes that share no file reach each other through one `cloudsync serve`
/// (issue 26): identity keys, messages, display names and a shared zone, on SQLite and
/// PostgreSQL, each client acting only as its own account (look-ups, never the other's token).
@Suite("users reach each other through serve (end to end)")
struct ServeUsersTests {
    /// The server (over `backend`'s cloud) and a client per account, each with its own token.
    struct TwoHomes {
        let fixture: ServeFixture
        let homes: [TemporaryDirectory]
        let runners: [String: BinaryRunner]

        init(_ backend: String, accounts: [String] = ["alice", "bob"]) throws {
            fixture = try ServeFixture(cloud: backend == "postgres" ? try ServeStatelessNodesTests.freshPostgresCloud() : nil)
            var homes: [TemporaryDirectory] = []
            var runners: [String: BinaryRunner] = [:]
            for account in accounts {
                let token = account == "alice" ? fixture.token
                    : trimmed(fixture.server.run(["token", "create", "--account", account, "--cloud", fixture.cloud]).stdout)
                let (home, runner) = fixture.client(account, token: token)
                var withPassphrase = runner
                withPassphrase.environment["CLOUDSYNC_PASSPHRASE"] = "\(account) passphrase"
                homes.append(home)
                runners[account] = withPassphrase
            }
            self.homes = homes
            self.runners = runners
        }

        @discardableResult
        func run(_ account: String, _ arguments: [String], stdin: String = "") -> ProcessResult {
            runners[account]!.run(["--account", account] + arguments, device: "\(account)-laptop", stdin: stdin)
        }

        func json(_ account: String, _ arguments: [String]) throws -> JSONValue {
            let result = run(account, arguments + ["--json"])
            try #require(result.status == 0, "\(account) \(arguments): \(result.status) \(result.stderr)")
            return try result.json()
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func keysMessagesNamesAndASharedZoneBetweenTwoHomes(_ backend: String) throws {
        let w = try TwoHomes(backend)
        #expect(w.run("bob", ["whoami", "--set-name", "Bob Builder"]).status == 0)
        let bobWho = try w.json("bob", ["whoami"])
        #expect(bobWho["displayName"] == .string("Bob Builder") && bobWho["discoverable"] == .bool(true), "\(bobWho)")
        _ = try w.json("alice", ["keys", "identity"])
        let bobKey = try w.json("bob", ["keys", "identity"])
        let fingerprint = try #require(bobKey["fingerprint"]?.stringValue)
        // The issue's repro: these were 77 ("the credential is for another account than 'bob'").
        let shown = w.run("alice", ["keys", "show", "bob"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("name:        Bob Builder"), "\(shown.stdout)")
        #expect(shown.stdout.contains("pinned now"), "\(shown.stdout)")
        #expect(w.run("alice", ["keys", "trust", "bob", fingerprint]).status == 0)
        let sent = w.run("alice", ["message", "send", "bob", "hello bob"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("to Bob Builder (bob)"), "\(sent.stdout)")
        let inbox = try w.json("bob", ["message", "inbox"])["messages"]?.arrayValue ?? []
        #expect(inbox.map { $0["text"]?.stringValue } == ["hello bob"], "\(inbox)")
        #expect(inbox.first?["from"] == .string("alice") && inbox.first?["authenticated"] == .bool(true), "\(inbox)")
        let id = try #require(inbox.first?["id"]?.stringValue)
        let read = w.run("bob", ["message", "read", id])
        #expect(read.status == 0 && read.stdout.contains("from:    alice") && read.stdout.contains("hello bob"), "\(read.stderr)")
        let outbox = try w.json("alice", ["message", "outbox"])["messages"]?.arrayValue ?? []
        #expect(outbox.first?["to"] == .string("bob") && outbox.first?["toDisplayName"] == .string("Bob Builder"), "\(outbox)")
        // Bob answers; alice's inbox shows his name.
        #expect(w.run("bob", ["message", "send", "alice", "hi alice"]).status == 0)
        let aliceInbox = w.run("alice", ["message", "inbox"])
        #expect(aliceInbox.stdout.contains("from Bob Builder (bob): hi alice"), "\(aliceInbox.stdout) \(aliceInbox.stderr)")

        // A shared zone: invite by login, accept, read, and the store of bob's home syncs it.
        #expect(w.run("alice", ["zone", "create", "Trips"]).status == 0)
        #expect(w.run("alice", ["record", "save", "Trip", "rome", "--zone", "Trips", "--field", "city=Rome"]).status == 0)
        let url = try #require(try w.json("alice", ["share", "create", "--zone", "Trips"])["url"]?.stringValue)
        let added = w.run("alice", ["share", "add", "--zone", "Trips", "bob"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(w.run("bob", ["share", "accept", url]).status == 0)
        let got = w.run("bob", ["--json", "record", "get", "rome", "--database", "shared", "--zone", "Trips", "--owner", "alice"])
        #expect(got.status == 0 && got.stdout.contains("Rome"), "\(got.stderr)")
        #expect(w.run("bob", ["store", "config", "shared-zones", "on"]).status == 0)
        let synced = w.run("bob", ["store", "sync", "on"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let stored = w.run("bob", ["--json", "store", "get", "rome", "--zone", "Trips", "--owner", "alice"])
        #expect(stored.status == 0 && stored.stdout.contains("Rome"), "the store of bob's home holds alice's shared zone: \(stored.stderr)")
        #expect(w.fixture.stop() == 0)
        #expect(!w.fixture.log.contains(" 403 "), "no client acted as another account: \(w.fixture.log)")
        #expect(w.fixture.log.contains("users/lookup/account alice 200"), "\(w.fixture.log)")
    }

    @Test(arguments: ["sqlite", "postgres"])
    func aHiddenAccountIsFoundOnlyByItsUserRecordNameAndNoOneReadsAnothersMessages(_ backend: String) throws {
        let w = try TwoHomes(backend, accounts: ["alice", "bob", "carol"])
        _ = try w.json("bob", ["keys", "identity"])
        let carol = try w.json("carol", ["keys", "identity"])
        let carolUser = try #require(carol["userRecordName"]?.stringValue)
        #expect(w.run("carol", ["whoami", "--discoverable", "off"]).status == 0)
        #expect(try w.json("carol", ["whoami"])["discoverable"] == .bool(false))
        // By login carol is as unknown as a login nobody has; by userRecordName she is found.
        for name in ["carol", "nobody"] {
            let refused = w.run("alice", ["keys", "show", name])
            #expect(refused.status == 3 && refused.stderr.contains("no account '\(name)' can be found"), "\(refused.stderr)")
        }
        #expect(w.run("alice", ["message", "send", "carol", "hi"]).status == 3)
        let byID = w.run("alice", ["keys", "show", carolUser])
        #expect(byID.status == 0, "\(byID.stderr)")
        // Her published key no longer carries her login.
        let record = w.run("alice", ["--json", "record", "get", carolUser, "--database", "public"])
        #expect(record.status == 0 && !record.stdout.contains("\"carol\""), "\(record.stdout)")
        let sent = w.run("alice", ["message", "send", carolUser, "for carol only"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let id = try #require(try w.json("alice", ["message", "outbox"])["messages"]?.arrayValue?.first?["id"]?.stringValue)
        // Bob can neither read nor list alice's message to carol, nor act as another account.
        #expect(try w.json("bob", ["message", "inbox"])["messages"]?.arrayValue?.isEmpty == true)
        let read = w.run("bob", ["message", "read", id])
        #expect(read.status == 77 && !read.stdout.contains("for carol only"), "\(read.stderr)")
        #expect(w.runners["bob"]!.run(["--account", "alice", "message", "inbox"], device: "b").status == 77)
        let carolInbox = try w.json("carol", ["message", "inbox"])["messages"]?.arrayValue ?? []
        #expect(carolInbox.first?["text"] == .string("for carol only"), "\(carolInbox)")

        // The endpoints themselves, as a stdlib client sends them: unknown users are NOT_FOUND
        // entries, the hidden login too, more than 100 is 400, and nothing private comes back.
        let bobToken = w.runners["bob"]!.environment["CLOUDSYNC_TOKEN"] ?? ""
        func post(_ endpoint: String, _ body: String) -> (status: String, json: JSONValue) {
            let result = ProcessSpawner.run("/usr/bin/curl", ["-s", "-XPOST", "-H", "Authorization: Bearer \(bobToken)",
                                                            w.fixture.url + "/database/1/iCloud.com.example.App/development/public/" + endpoint,
                                                            "-d", body, "-w", "\n%{http_code}"], environment: [:])
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (String(lines.last ?? ""), (try? JSONValue.parse(lines.dropLast().joined(separator: "\n"))) ?? .null)
        }
        let byName = post("users/lookup/account", #"{"users":[{"accountName":"alice"},{"accountName":"carol"},{"accountName":"nobody"}]}"#)
        #expect(byName.status == "200", "\(byName)")
        let entries = byName.json["users"]?.arrayValue ?? []
        #expect(entries.count == 3 && entries[0]["accountName"] == .string("alice") && entries[0]["userRecordName"] != nil, "\(entries)")
        #expect(entries[0]["discoverable"] == nil, "\(entries)")
        #expect(entries.dropFirst().allSatisfy { $0["serverErrorCode"] == .string("NOT_FOUND") }, "\(entries)")
        #expect(entries[1]["reason"]?.stringValue?.split(separator: "carol").joined(separator: "nobody") == entries[2]["reason"]?.stringValue,
                "a hidden login and a missing one read alike: \(entries)")
        let byUser = post("users/lookup/id", #"{"users":[{"userRecordName":"\#(carolUser)"},{"userRecordName":"_0123456789abcdef0123456789abcdef"}]}"#)
        let ids = byUser.json["users"]?.arrayValue ?? []
        #expect(byUser.status == "200" && ids.count == 2 && ids[0]["userRecordName"] == .string(carolUser), "\(byUser)")
        #expect(ids[0]["accountName"] == nil, "a hidden account's login is not told: \(ids)")
        #expect(ids[1]["serverErrorCode"] == .string("NOT_FOUND"), "\(ids)")
        let many = (0...100).map { #"{"accountName":"u\#($0)"}"# }.joined(separator: ",")
        let tooMany = post("users/lookup/account", #"{"users":[\#(many)]}"#)
        #expect(tooMany.status == "400" && tooMany.json["serverErrorCode"] == .string("BAD_REQUEST"), "\(tooMany)")
        let caller = post("users/caller", "{}")
        #expect(caller.status == "200" && caller.json["accountName"] == .string("bob"), "\(caller)")
        #expect(w.fixture.stop() == 0)
    }
}
