import CloudSyncCore
import TestSupport
import Testing

/// Container API tokens (issue 26): `ckAPIToken` alone acts as no user, reading the public
/// database where the schema lets `_world` read; everything that needs a user is 421
/// AUTHENTICATION_REQUIRED with a `redirectURL`; with `ckWebAuthToken` the request is that
/// user's; a credential that fails says which part failed (401).
@Suite("cloudsync serve: API tokens and anonymous reads (end to end)")
struct ServeAPITokenTests {
    static let container = "iCloud.com.example.App"
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Post (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE,
                GRANT READ TO "_world", GRANT CREATE TO "_icloud", GRANT WRITE TO "_creator"
            );
            RECORD TYPE Secret (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE,
                GRANT READ, CREATE TO "_icloud", GRANT WRITE TO "_creator"
            );
        """

    /// `curl` a Web Services call: (status, JSON reply or the raw text).
    func call(_ fixture: ServeFixture, _ tail: String, scope: String = "public", query: String, body: String? = "{}",
              method: String = "POST") -> (status: Int, json: JSONValue, text: String) {
        var arguments = ["-s", "-X", method, "-w", "\n%{http_code}",
                         fixture.url + "/database/1/\(Self.container)/development/\(scope)/\(tail)?\(query)"]
        if let body { arguments += ["-H", "Content-Type: application/json", "-d", body] }
        let result = ProcessSpawner.run("/usr/bin/curl", arguments, environment: [:])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let text = lines.dropLast().joined(separator: "\n")
        return (Int(lines.last ?? "") ?? 0, (try? JSONValue.parse(text)) ?? .null, text)
    }

    @Test func anAPITokenReadsWhatTheWorldMayReadAndNothingElse() throws {
        let fixture = try ServeFixture()
        let (home, alice) = fixture.client("alice")
        let admin = trimmed(fixture.server.run(["token", "create", "--account", "ops", "--admin", "--cloud", fixture.cloud]).stdout)
        let (_, ops) = fixture.client("ops", token: admin)
        #expect(ops.run(["--account", "ops", "schema", "import", home.write("s.ckdb", Self.schema)], device: "o").status == 0)
        #expect(alice.run(["record", "save", "Post", "p1", "--database", "public", "--field", "title=hello world"], device: "a").status == 0)
        #expect(alice.run(["record", "save", "Secret", "s1", "--database", "public", "--field", "title=members only"], device: "a").status == 0)
        #expect(alice.run(["record", "save", "Note", "n1", "--field", "title=private"], device: "a").status == 0)
        let made = fixture.server.run(["--container", Self.container, "token", "create", "--api", "--json", "--cloud", fixture.cloud])
        let api = try #require(try made.json()["token"]?.stringValue)
        #expect(api.utf8.count == 64 && api.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(api)")
        // Public reads of a _world type: query and lookup.
        let query = call(fixture, "records/query", query: "ckAPIToken=\(api)", body: #"{"query":{"recordType":"Post"}}"#)
        #expect(query.status == 200 && query.text.contains("hello world"), "\(query.text)")
        let lookup = call(fixture, "records/lookup", query: "ckAPIToken=\(api)", body: #"{"records":[{"recordName":"p1"}]}"#)
        #expect(lookup.status == 200 && lookup.text.contains("hello world"), "\(lookup.text)")
        // A type only signed-in accounts read is not the world's.
        let secret = call(fixture, "records/query", query: "ckAPIToken=\(api)", body: #"{"query":{"recordType":"Secret"}}"#)
        #expect(!secret.text.contains("members only"), "\(secret.status) \(secret.text)")
        // Anything that needs a user: 421 with a redirectURL to this server's sign-in page.
        for (tail, scope, body) in [("records/query", "private", #"{"query":{"recordType":"Note"}}"#),
                                    ("records/modify", "public", #"{"operations":[]}"#), ("users/current", "public", "{}"),
                                    ("zones/list", "private", "{}")] {
            let refused = call(fixture, tail, scope: scope, query: "ckAPIToken=\(api)", body: body)
            #expect(refused.status == 421, "\(tail) \(scope): \(refused.status) \(refused.text)")
            #expect(refused.json["serverErrorCode"] == .string("AUTHENTICATION_REQUIRED"), "\(refused.text)")
            #expect(refused.json["redirectURL"]?.stringValue?.hasSuffix("/sign-in") == true, "\(refused.text)")
        }
        let page = ProcessSpawner.run("/usr/bin/curl", ["-s", fixture.url + "/sign-in"], environment: [:])
        #expect(page.stdout.contains("cloudsync login"), "\(page.stdout)")
        // With a user's web token as well, the request is that user's.
        let asAlice = call(fixture, "records/query", scope: "private", query: "ckAPIToken=\(api)&ckWebAuthToken=\(fixture.token)",
                           body: #"{"query":{"recordType":"Note"}}"#)
        #expect(asAlice.status == 200 && asAlice.text.contains("private"), "\(asAlice.text)")
        // Another container, a malformed or a revoked token: 401 saying which.
        let other = ProcessSpawner.run("/usr/bin/curl", ["-s", "-X", "POST", "-d", #"{"query":{"recordType":"Post"}}"#,
                                                         fixture.url + "/database/1/iCloud.com.example.Other/development/public/records/query?ckAPIToken=\(api)"],
                                       environment: [:])
        #expect(other.stdout.contains("another container"), "\(other.stdout)")
        let malformed = call(fixture, "records/query", query: "ckAPIToken=XYZ", body: #"{"query":{"recordType":"Post"}}"#)
        #expect(malformed.status == 401 && malformed.text.contains("64 lowercase hex"), "\(malformed.text)")
        let listed = try fixture.server.run(["token", "list", "--json", "--cloud", fixture.cloud]).json()
        let entry = try #require(listed["tokens"]?.arrayValue?.first { $0["kind"] == .string("api-token") })
        #expect(entry["container"] == .string(Self.container) && entry["role"] == .string("none"), "\(entry)")
        let id = try #require(entry["id"]?.stringValue)
        #expect(fixture.server.run(["token", "revoke", id, "--cloud", fixture.cloud]).status == 0)
        let revoked = call(fixture, "records/query", query: "ckAPIToken=\(api)", body: #"{"query":{"recordType":"Post"}}"#)
        #expect(revoked.status == 401 && revoked.text.contains("API token was revoked"), "\(revoked.text)")
        #expect(fixture.stop() == 0)
    }
}
