import CloudSyncCore
import TestSupport
import Testing

/// The scenarios taking an `AccountsBackend` run on the embedded cloud and through `serve`, each
/// account in its own home with its own token.
@Suite("message: end-to-end encrypted messages between accounts (through the binary)")
struct MessageCommandTests {
    @Test(arguments: AccountsBackend.allCases)
    func sendInboxReadOutboxDeleteAcrossDevices(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        let alice = try fx.identity("alice")
        _ = try fx.identity("bob")
        // The second device of each account gets the same identity after unlocking.
        #expect(try fx.identity("alice", device: "phone")["fingerprint"] == alice["fingerprint"])
        let first = try fx.send("alice", "bob", "hello bob")
        let second = try fx.send("alice", "bob", "lunch at noon?", device: "phone")
        for device in ["laptop", "phone"] {
            let inbox = try fx.box("bob", device: device)
            #expect(inbox.map { $0["id"]?.stringValue } == [first, second])
            #expect(inbox.map { $0["text"]?.stringValue } == ["hello bob", "lunch at noon?"])
            #expect(inbox.allSatisfy { $0["from"]?.stringValue == "alice" && $0["authenticated"] == .bool(true) })
        }
        let text = fx.run("bob", ["message", "inbox"], device: "phone")
        #expect(text.status == 0)
        #expect(text.stdout.contains("from alice: hello bob"))
        let read = fx.run("bob", ["message", "read", second])
        #expect(read.status == 0)
        #expect(read.stdout.contains("lunch at noon?"))
        #expect(read.stdout.contains("from:    alice"))
        // The outbox is opened from the sender's own copy, on either device.
        let outbox = try fx.box("alice", "outbox", device: "phone")
        #expect(outbox.map { $0["text"]?.stringValue } == ["hello bob", "lunch at noon?"])
        #expect(outbox.allSatisfy { $0["to"]?.stringValue == "bob" })
        #expect(try fx.box("bob", "outbox").isEmpty)
        // --limit keeps the most recent; --since filters by sentAt.
        #expect(try fx.box("bob", device: "phone", extra: ["--limit", "1"]).map { $0["id"]?.stringValue } == [second])
        // sentAt is epoch milliseconds (as every time in --json); --since takes every time form.
        let sentAt = try #require(try fx.box("bob").first?["sentAt"]?.int64Value)
        #expect(try fx.box("bob", extra: ["--since", String(sentAt)]).map { $0["id"]?.stringValue } == [second])
        #expect(try fx.box("bob", extra: ["--since", ISO8601.format(milliseconds: sentAt)]).map { $0["id"]?.stringValue } == [second])
        #expect(try fx.box("bob", extra: ["--since", "@\(sentAt / 1000 - 1)"]).count == 2, "@epoch-seconds")
        #expect(try fx.box("bob", extra: ["--since", "@\(sentAt / 1000 + 3600)"]).isEmpty, "@epoch-seconds")
        // The recipient can only hide (this device); the sender deletes from the cloud.
        let hide = fx.run("bob", ["message", "delete", first, "--json"])
        #expect(hide.status == 0)
        #expect(try hide.json()["messages"]?.arrayValue?.first?["action"]?.stringValue == "hidden")
        #expect(try hide.json()["messages"]?.arrayValue?.first?["deleted"] == .bool(true))
        #expect(try fx.box("bob").map { $0["id"]?.stringValue } == [second])
        #expect(try fx.box("bob", device: "phone").count == 2, "hiding is local to the device")
        #expect(try fx.run("alice", ["message", "delete", second, "--json"]).json()["messages"]?.arrayValue?.first?["action"]?.stringValue == "deleted")
        #expect(try fx.box("bob", device: "phone").map { $0["id"]?.stringValue } == [first])
        #expect(fx.run("bob", ["message", "read", second]).status == 3)
    }

    @Test(arguments: AccountsBackend.allCases)
    func noPlaintextInTheCloudAndAThirdAccountCannotRead(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        _ = try fx.identity("bob")
        let secret = "Sup3rSecretMessageText-\(Int.random(in: 1000...9999))"
        let id = try fx.send("alice", "bob", secret)
        _ = try fx.identity("carol")
        for suffix in ["", "-wal"] {
            let bytes = TemporaryDirectory.readBytes(fx.home.file("cloud.sqlite" + suffix)) ?? []
            #expect(!contains(bytes, Array(secret.utf8)), "cloud.sqlite\(suffix) holds the plaintext")
        }
        // The record is public, but carol can neither read nor delete it, nor see it as hers.
        let raw = fx.run("carol", ["record", "get", id, "--database", "public", "--json"])
        #expect(raw.status == 0)
        #expect(!raw.stdout.contains(secret))
        let read = fx.run("carol", ["message", "read", id])
        #expect(read.status == 77)
        #expect(!read.stdout.contains(secret) && !read.stderr.contains(secret))
        #expect(fx.run("carol", ["message", "delete", id]).status == 77)
        #expect(try fx.box("carol").isEmpty)
        #expect(fx.run("carol", ["record", "delete", id, "--database", "public"]).status == 77)
        // Carol cannot publish a key in bob's name or forge alice as a sender (service rules).
        let bobUser = try #require(try fx.identity("bob")["userRecordName"]?.stringValue)
        let squat = fx.run("carol", ["record", "save", "UserIdentity", bobUser, "--database", "public", "--field", "account=bob"])
        #expect(squat.status == 77, "\(squat.stderr)")
        let aliceUser = try #require(try fx.identity("alice")["userRecordName"]?.stringValue)
        let forged = #"{"from": {"value": {"recordName": "\#(aliceUser)"}, "type": "REFERENCE"}}"#
        let forge = fx.run("carol", ["record", "save", "Message", "msg-forged", "--database", "public", "--fields-json", "-"], stdin: forged)
        #expect(forge.status == 77, "\(forge.stderr)")
    }

    @Test(arguments: AccountsBackend.allCases)
    func rotationKeepsOldMessagesReadable(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        _ = try fx.identity("bob")
        let old = try fx.send("alice", "bob", "before rotation")
        let rotated = fx.run("bob", ["keys", "rotate", "--json"], device: "phone")
        #expect(rotated.status == 0, "\(rotated.stderr)")
        let newFingerprint = try #require(try rotated.json()["fingerprint"]?.stringValue)
        // Alice must trust bob's new key before sending again (the change is flagged).
        #expect(fx.run("alice", ["message", "send", "bob", "refused"]).status == 77)
        #expect(fx.run("alice", ["keys", "trust", "bob", newFingerprint]).status == 0)
        let new = try fx.send("alice", "bob", "after rotation")
        // Alice rotates too: her outbox still opens, and bob still authenticates her old messages.
        #expect(fx.run("alice", ["keys", "rotate"]).status == 0)
        let inbox = try fx.box("bob")
        #expect(inbox.map { $0["id"]?.stringValue } == [old, new])
        #expect(inbox.map { $0["text"]?.stringValue } == ["before rotation", "after rotation"])
        #expect(try fx.box("alice", "outbox").map { $0["text"]?.stringValue } == ["before rotation", "after rotation"])
        #expect(try fx.identity("bob")["fingerprint"]?.stringValue == newFingerprint)
    }

    @Test(arguments: AccountsBackend.allCases)
    func aChangedKeyIsFlaggedAndSendingRefusedUntilTrusted(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        _ = try fx.identity("bob")
        let first = try fx.run("alice", ["keys", "show", "bob", "--json"]).json()
        #expect(first["trust"]?.stringValue == "pinned-now")
        #expect(try fx.run("alice", ["keys", "show", "bob", "--json"]).json()["trust"]?.stringValue == "trusted")
        let rotated = try #require(try fx.run("bob", ["keys", "rotate", "--json"]).json()["fingerprint"]?.stringValue)
        let show = fx.run("alice", ["keys", "show", "bob"])
        #expect(show.status == 0)
        #expect(show.stdout.contains("CHANGED"))
        #expect(show.stderr.contains("changed"))
        let refused = fx.run("alice", ["message", "send", "bob", "hi"])
        #expect(refused.status == 77)
        #expect(refused.stderr.contains("CHANGED"))
        #expect(fx.run("alice", ["keys", "trust", "bob", String(repeating: "0", count: 64)]).status == 4, "not the published key")
        #expect(fx.run("alice", ["keys", "trust", "bob", "xyz"]).status == 65)
        let grouped = stride(from: 0, to: 64, by: 4).map { i in
            String(rotated[rotated.index(rotated.startIndex, offsetBy: i)..<rotated.index(rotated.startIndex, offsetBy: i + 4)]).uppercased()
        }.joined(separator: " ")
        #expect(fx.run("alice", ["keys", "trust", "bob", grouped]).status == 0, "spaces and case are ignored")
        #expect(fx.run("alice", ["message", "send", "bob", "hi"]).status == 0)
        // A message from a sender whose key changed without being trusted cannot be authenticated.
        _ = try fx.send("bob", "alice", "from bob")
        #expect(try fx.box("alice").first?["authenticated"] == .bool(true))
        _ = try fx.identity("carol")
        let carolID = try fx.send("bob", "carol", "to carol")
        #expect(try fx.box("carol").first?["text"]?.stringValue == "to carol")
        #expect(fx.run("bob", ["keys", "rotate"]).status == 0)
        _ = try fx.send("bob", "carol", "after the change")
        let carol = try fx.box("carol")
        #expect(carol.first?["id"]?.stringValue == carolID)
        #expect(carol.first?["text"]?.stringValue == "to carol")
        #expect(carol.last?["authenticated"] == .bool(false))
        #expect(carol.last?["text"] == nil)
    }

    @Test(arguments: AccountsBackend.allCases)
    func badInputIsRefusedClearly(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend, accounts: ["alice", "bob", "dave"])
        _ = try fx.identity("bob")
        let unknown = fx.run("alice", ["message", "send", "nobody", "hi"])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("no account 'nobody' can be found"), "\(unknown.stderr)")
        #expect(fx.run("alice", ["message", "send", "bob"]).status == 64)
        #expect(fx.run("alice", ["message", "send", "bob", "hi", "--file", "/etc/hostname"]).status == 64)
        #expect(fx.run("alice", ["message", "send", "bob", ""]).status == 65)
        #expect(fx.run("alice", ["message", "send", "bob", "--file", fx.home.file("missing")]).status == 65)
        let big = fx.home.write("big.txt", String(repeating: "x", count: 512_001))
        let oversize = fx.run("alice", ["message", "send", "bob", "--file", big])
        #expect(oversize.status == 65)
        #expect(oversize.stderr.contains("512000 bytes"))
        let fits = fx.home.write("fits.txt", String(repeating: "y", count: 512_000))
        #expect(fx.run("alice", ["message", "send", "bob", "--file", fits]).status == 0, "the limit fits in a record")
        let piped = fx.run("alice", ["message", "send", "bob", "-"], stdin: "from stdin\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try fx.send("alice", "bob", "esc\u{1B}[31mred\u{07}").hasPrefix("msg-"))
        let inbox = fx.run("bob", ["message", "inbox"])
        #expect(inbox.status == 0)
        #expect(!inbox.stdout.contains("\u{1B}") && !inbox.stdout.contains("\u{07}"), "control characters are escaped")
        #expect(inbox.stdout.contains("from alice: from stdin"))
        #expect(fx.run("bob", ["message", "read", "msg-nope"]).status == 3)
        #expect(fx.run("bob", ["message", "read", "bad id with spaces"]).status == 3)
        #expect(fx.run("bob", ["message", "inbox", "--limit", "0"]).status == 64)
        #expect(fx.run("bob", ["message", "inbox", "--since", "yesterday"]).status == 64)
        #expect(fx.run("alice", ["keys", "show", "nobody"]).status == 3)
        // A note to self works from an account without an identity yet.
        #expect(fx.run("dave", ["message", "send", "dave", "note to self"]).status == 0)
        #expect(try fx.box("dave").first?["text"]?.stringValue == "note to self")
    }
}

@Suite("message: live chat through a query subscription on the inbox")
struct MessageLiveChatTests {
    @Test(arguments: AccountsBackend.allCases)
    func theDocumentedSubscriptionWakesTheRecipient(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        let bob = try #require(try fx.identity("bob")["userRecordName"]?.stringValue)
        let create = fx.run("bob", ["subscribe", "create", "--query", "Message", "--where", "to == %@", "--arg", bob,
                                    "--fires-on", "create", "--database", "public", "--id", "inbox"])
        #expect(create.status == 0, "\(create.stderr)")
        _ = try fx.send("alice", "bob", "are you there?")
        _ = try fx.identity("carol")
        _ = try fx.send("alice", "carol", "not for bob")
        let listen = fx.run("bob", ["subscribe", "listen", "--timeout", "0", "--exec", #"cloudsync message read "$CLOUDSYNC_RECORD_NAME""#])
        #expect(listen.status == 0, "\(listen.stderr)")
        #expect(listen.stderr.contains("are you there?"))
        #expect(!listen.stderr.contains("not for bob"))
    }
}

@Suite("message inbox: text is never cut when piped (through the binary)")
struct MessageInboxWidthTests {
    @Test(arguments: AccountsBackend.allCases)
    func aLongFirstLineIsPrintedWholeWhenPiped(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        _ = try fx.identity("alice")
        _ = try fx.identity("bob")
        let long = String(repeating: "long words ", count: 30) + "end"
        _ = try fx.send("alice", "bob", long + "\nsecond line")
        let inbox = fx.run("bob", ["message", "inbox"])
        #expect(inbox.status == 0)
        #expect(inbox.stdout.contains("from alice: \(long) …\n"))
    }
}
