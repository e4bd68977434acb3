import CloudSyncCore
import TestSupport
import Testing

@Suite("message: tampered messages are flagged, never shown, and the inbox still lists")
struct MessageTamperTests {
    /// Three messages to bob; the middle one is then edited in the cloud file with sqlite3 (the
    /// embedded cloud's, or the server's under `serve`).
    func threeMessages(_ fx: MessageFixture) throws -> [String] {
        _ = try fx.identity("bob")
        return [try fx.send("alice", "bob", "one"), try fx.send("alice", "bob", "two"), try fx.send("alice", "bob", "three")]
    }

    func expectFlagged(_ fx: MessageFixture, _ ids: [String], tampered: String) throws {
        let inbox = try fx.box("bob")
        #expect(inbox.map { $0["id"]?.stringValue } == ids)
        #expect(inbox.map { $0["authenticated"] } == [.bool(true), .bool(false), .bool(true)])
        #expect(inbox[1]["status"]?.stringValue == "could not be authenticated")
        #expect(inbox[1]["text"] == nil)
        #expect(inbox[0]["text"]?.stringValue == "one" && inbox[2]["text"]?.stringValue == "three")
        let text = fx.run("bob", ["message", "inbox"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("could not be authenticated"))
        #expect(!text.stdout.contains("two"))
        let read = fx.run("bob", ["message", "read", tampered])
        #expect(read.status == 65)
        #expect(read.stderr.contains("could not be authenticated"))
        #expect(!read.stdout.contains("two"))
    }

    @Test(arguments: AccountsBackend.allCases)
    func editedCiphertext(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        let ids = try threeMessages(fx)
        let record = try fx.run("bob", ["record", "get", ids[1], "--database", "public", "--json"]).firstRecord()
        var box = try #require(record["fields"]?["ciphertext"]?["value"]?.stringValue.flatMap(Base64.decode))
        box[0] ^= 0x01
        let update = fx.sqlite("UPDATE records SET fields = json_set(fields, '$.ciphertext.value', '\(Base64.encode(box))') WHERE name = '\(ids[1])'")
        #expect(update.status == 0, "\(update.stderr)")
        try expectFlagged(fx, ids, tampered: ids[1])
        // The sender's own copy was not touched: the outbox still opens it.
        #expect(try fx.box("alice", "outbox").map { $0["text"]?.stringValue } == ["one", "two", "three"])
    }

    @Test(arguments: AccountsBackend.allCases)
    func ciphertextMovedToAnotherMessage(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        let ids = try threeMessages(fx)
        // The AAD is the record name: the sealed copy of message one does not open as message two.
        let update = fx.sqlite("""
            UPDATE records SET fields = json_set(fields, '$.ciphertext.value',
              (SELECT json_extract(fields, '$.ciphertext.value') FROM records WHERE name = '\(ids[0])'),
              '$.enc.value', (SELECT json_extract(fields, '$.enc.value') FROM records WHERE name = '\(ids[0])'))
            WHERE name = '\(ids[1])'
            """)
        #expect(update.status == 0, "\(update.stderr)")
        try expectFlagged(fx, ids, tampered: ids[1])
    }

    @Test(arguments: AccountsBackend.allCases)
    func senderRewrittenToAnotherAccount(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        let ids = try threeMessages(fx)
        let carol = try #require(try fx.identity("carol")["userRecordName"]?.stringValue)
        let update = fx.sqlite("UPDATE records SET fields = json_set(fields, '$.from.value.recordName', '\(carol)') WHERE name = '\(ids[1])'")
        #expect(update.status == 0, "\(update.stderr)")
        try expectFlagged(fx, ids, tampered: ids[1])
    }

    @Test(arguments: AccountsBackend.allCases)
    func garbageFieldsDoNotCrash(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        let ids = try threeMessages(fx)
        let update = fx.sqlite("UPDATE records SET fields = json_set(fields, '$.enc.value', 'AAAA', '$.keyID.value', 'zz') WHERE name = '\(ids[1])'")
        #expect(update.status == 0, "\(update.stderr)")
        try expectFlagged(fx, ids, tampered: ids[1])
    }
}
