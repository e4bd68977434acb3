import CloudSyncCore
import TestSupport
import Testing

/// Issue 25, item 9: `--json` escapes C1 controls (U+009B, a one-character CSI) and bidi controls
/// (U+202E, the right-to-left override) that come from another account's data, as `\u009b` and
/// `\u202e`, in `record get`, `share list`, `message inbox` and `kv list`, through the built
/// binary. The raw stdout bytes are checked, and the value still parses back exactly.
@Suite("control characters in --json output (end to end)")
struct JSONControlCharactersEndToEndTests {
    let home = TemporaryDirectory("json-controls-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_PASSPHRASE": "correct horse"]) }

    static let value = "x\u{9B}31m\u{202E}evil"

    func run(_ account: String, _ arguments: [String]) -> ProcessResult {
        cli.run(["--account", account] + arguments, device: "laptop")
    }

    /// `\u009b` and `\u202e` on stdout, and neither character raw (C2 9B, E2 80 AE).
    func expectEscaped(_ result: ProcessResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(result.stdout.utf8)
        #expect(result.status == 0, "\(what): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.contains(#"x\u009b31m\u202eevil"#), "\(what): \(result.stdout)", sourceLocation: sourceLocation)
        #expect(!Self.contains(bytes, [0xC2, 0x9B]) && !Self.contains(bytes, [0xE2, 0x80, 0xAE]), "\(what): raw bytes",
                sourceLocation: sourceLocation)
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }

    @Test func recordGetOfAnotherAccountsPublicRecord() throws {
        #expect(run("alice", ["record", "save", "Post", "p1", "--database", "public", "--field", "title=" + Self.value]).status == 0)
        let get = run("bob", ["--json", "record", "get", "p1", "--database", "public"])
        expectEscaped(get, "record get")
        #expect(try get.firstRecord()["fields"]?["title"]?["value"]?.stringValue == Self.value)
    }

    @Test func shareListOfAShareFromAnotherAccount() throws {
        #expect(run("bob", ["zone", "create", "Own"]).status == 0)  // registers bob (a read-only command does not)
        #expect(run("alice", ["zone", "create", "Trips"]).status == 0)
        let created = try run("alice", ["--json", "share", "create", "--zone", "Trips", "--title", Self.value]).json()
        let url = try #require(created["url"]?.stringValue)
        #expect(run("alice", ["share", "add", "--zone", "Trips", "bob"]).status == 0)
        #expect(run("bob", ["share", "accept", url]).status == 0)
        let list = run("bob", ["--json", "share", "list"])
        expectEscaped(list, "share list")
        #expect(try list.json()["accepted"]?.arrayValue?.first?["title"]?.stringValue == Self.value)
    }

    @Test func messageInboxOfAMessageFromAnotherAccount() throws {
        for account in ["alice", "bob"] { #expect(run(account, ["keys", "identity", "--json"]).status == 0) }
        let sent = run("alice", ["message", "send", "bob", Self.value])
        #expect(sent.status == 0, "\(sent.stderr)")
        let inbox = run("bob", ["--json", "message", "inbox"])
        expectEscaped(inbox, "message inbox")
        #expect(try inbox.json()["messages"]?.arrayValue?.first?["text"]?.stringValue == Self.value)
    }

    @Test func keyValueList() throws {
        #expect(run("alice", ["kv", "set", "motd", Self.value]).status == 0)
        let list = run("alice", ["--json", "kv", "list"])
        expectEscaped(list, "kv list")
    }
}
