import CloudSyncCore
import TestSupport
import Testing

/// The console layer of `cloudsync serve` (issue 29) over HTTP: the app's files with their
/// security headers, and who may use `GET /metrics` and `/admin/1/…` (administrators only;
/// another account, an API token or no credential cannot).
@Suite("cloudsync serve: the console, /metrics and the administrator's calls")
struct ServeConsoleTests {
    /// `curl -s -i` of `path` with `arguments`: (status, headers, body).
    static func curl(_ url: String, _ arguments: [String]) -> (status: Int, headers: String, body: String) {
        let result = ProcessSpawner.run("/usr/bin/curl", ["-s", "-i", "--max-time", "20"] + arguments + [url], environment: [:])
        let text = result.stdout.replacing("\r\n", with: "\n")
        let split = text.firstRange(of: "\n\n")
        let head = split.map { String(text[..<$0.lowerBound]) } ?? text
        let body = split.map { String(text[$0.upperBound...]) } ?? ""
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, head, body)
    }

    static func bearer(_ token: String) -> [String] { ["-H", "Authorization: Bearer \(token)"] }

    @Test func theAppIsServedWithAStrictPolicyAndNoCookie() throws {
        let fixture = try ServeFixture()
        for name in ["", "console.css", "core.js", "data.js", "schema.js", "operations.js"] {
            let reply = Self.curl(fixture.url + "/console/" + name, [])
            #expect(reply.status == 200, "\(name): \(reply.headers)")
            let headers = reply.headers.lowercased()
            #expect(headers.contains("content-security-policy: default-src 'none'; script-src 'self'; style-src 'self'"), "\(name)")
            #expect(headers.contains("frame-ancestors 'none'"), "\(name)")
            #expect(!headers.contains("unsafe-inline") && !headers.contains("unsafe-eval"), "\(name)")
            #expect(headers.contains("x-content-type-options: nosniff"), "\(name)")
            #expect(!headers.contains("set-cookie"), "\(name)")
        }
        let page = Self.curl(fixture.url + "/console/", [])
        #expect(page.body.contains("<script src=\"core.js\" defer></script>"))
        // No inline script: every <script> has a src and no body.
        #expect(!page.body.contains("<script>"), "\(page.body)")
        #expect(!page.body.contains("style="), "\(page.body)")
        #expect(Self.curl(fixture.url + "/console", []).headers.contains("Location: /console/"))
        #expect(Self.curl(fixture.url + "/console/nope.js", []).status == 404)
        #expect(Self.curl(fixture.url + "/console/", ["-X", "POST", "-d", "{}"]).status == 405)
        #expect(fixture.stop() == 0)
    }

    @Test func metricsAreForAdministratorsOnly() throws {
        let fixture = try ServeFixture()
        let ops = trimmed(fixture.server.run(["token", "create", "--account", "ops", "--admin", "--cloud", fixture.cloud]).stdout)
        let api = trimmed(fixture.server.run(["--container", "iCloud.com.example.App", "token", "create", "--api",
                                              "--cloud", fixture.cloud]).stdout)
        let (_, alice) = fixture.client("alice")
        #expect(alice.run(["record", "save", "Note", "n1", "--field", "title=hello"], device: "a").status == 0)
        #expect(Self.curl(fixture.url + "/metrics", []).status == 401)
        #expect(Self.curl(fixture.url + "/metrics", Self.bearer("cst_unknown")).status == 401)
        let refused = Self.curl(fixture.url + "/metrics", Self.bearer(fixture.token))
        #expect(refused.status == 403 && refused.body.contains("ACCESS_DENIED"), "\(refused)")
        #expect(!refused.body.contains("cloudsync_http"), "alice sees no figure")
        #expect(Self.curl(fixture.url + "/metrics?ckAPIToken=" + api, []).status == 403)
        let metrics = Self.curl(fixture.url + "/metrics", Self.bearer(ops))
        #expect(metrics.status == 200, "\(metrics)")
        #expect(metrics.headers.contains("text/plain; version=0.0.4"))
        #expect(metrics.body.contains("cloudsync_http_requests_total{endpoint=\"records/modify\",code=\"2xx\"} 1"), "\(metrics.body)")
        #expect(metrics.body.contains("cloudsync_http_errors_total{endpoint=\"metrics\"} 4"), "\(metrics.body)")
        #expect(metrics.body.contains("cloudsync_http_request_duration_seconds_count{endpoint=\"records/modify\"} 1"))
        #expect(metrics.body.contains("cloudsync_container_records{container=\"iCloud.com.example.App\"} 1"), "\(metrics.body)")
        #expect(metrics.body.contains("cloudsync_container_bytes{container=\"iCloud.com.example.App\",kind=\"fields\"}"))
        #expect(metrics.body.contains("cloudsync_http_connections_open "))
        // Made-up paths do not grow the label set.
        _ = Self.curl(fixture.url + "/database/1/iCloud.com.example.App/development/private/no/such", Self.bearer(fixture.token))
        let after = Self.curl(fixture.url + "/metrics", Self.bearer(ops)).body
        #expect(after.contains("endpoint=\"other\"") && !after.contains("no/such"), "\(after)")
        // The API token's value never reaches the log.
        #expect(fixture.stop() == 0)
        #expect(!fixture.log.contains(api), "\(fixture.log)")
        #expect(fixture.log.contains("/metrics?ckAPIToken=- "), "\(fixture.log)")
    }

    /// Records and bytes per container come from PostgreSQL too (the same SQL, its dialect).
    @Test func containerFiguresOverPostgreSQL() throws {
        let fixture = try ServeFixture(admin: true, cloud: try ServeStatelessNodesTests.freshPostgresCloud())
        let (_, client) = fixture.client("alice")
        #expect(client.run(["record", "save", "Note", "n1", "--field", "title=hello"], device: "a").status == 0)
        #expect(client.run(["record", "save", "Note", "n2", "--field", "title=world"], device: "a").status == 0)
        #expect(client.run(["record", "delete", "n2"], device: "a").status == 0)
        let metrics = Self.curl(fixture.url + "/metrics", Self.bearer(fixture.token))
        #expect(metrics.status == 200, "\(metrics)")
        #expect(metrics.body.contains("cloudsync_container_records{container=\"iCloud.com.example.App\"} 1\n"), "\(metrics.body)")
        let fields = metrics.body.split(separator: "\n").first { $0.hasPrefix("cloudsync_container_bytes{container=\"iCloud.com.example.App\",kind=\"fields\"}") }
        #expect((fields?.split(separator: " ").last).flatMap { Int($0) } ?? 0 > 0, "\(metrics.body)")
        #expect(fixture.stop() == 0)
    }

    @Test func onlyAnAdministratorListsCreatesAndRevokesCredentials() throws {
        let fixture = try ServeFixture()
        let ops = trimmed(fixture.server.run(["token", "create", "--account", "ops", "--admin", "--cloud", fixture.cloud]).stdout)
        let post = ["-X", "POST", "-H", "Content-Type: application/json"]
        for name in ["credentials/list", "credentials/create", "credentials/revoke", "keys/add"] {
            let refused = Self.curl(fixture.url + "/admin/1/" + name, post + Self.bearer(fixture.token) + ["-d", #"{"account":"mallory","admin":true,"id":"x"}"#])
            #expect(refused.status == 403 && refused.body.contains("ACCESS_DENIED"), "\(name): \(refused)")
            #expect(Self.curl(fixture.url + "/admin/1/" + name, post + ["-d", "{}"]).status == 401, "\(name)")
        }
        // Alice made no token: only hers and ops's exist.
        let listed = try JSONValue.parse(Self.curl(fixture.url + "/admin/1/credentials/list", post + Self.bearer(ops)).body)
        let rows = try #require(listed["credentials"]?.arrayValue)
        #expect(rows.count == 2 && !rows.contains { $0["account"] == .string("mallory") }, "\(listed)")
        #expect(!Self.curl(fixture.url + "/admin/1/credentials/list", post + Self.bearer(ops)).body.contains("cst_"), "never a token")
        // Roles: any credential may ask its own.
        #expect(Self.curl(fixture.url + "/admin/1/role", post + Self.bearer(fixture.token)).body.contains(#""role":"user""#))
        #expect(Self.curl(fixture.url + "/admin/1/role", post + Self.bearer(ops)).body.contains(#""role":"admin""#))
        #expect(Self.curl(fixture.url + "/admin/1/role", post).status == 401)
        // Create a token for carol; it works; revoke it; it is refused.
        let made = try JSONValue.parse(Self.curl(fixture.url + "/admin/1/credentials/create", post + Self.bearer(ops)
                                                 + ["-d", #"{"account":"carol"}"#]).body)
        let carol = try #require(made["token"]?.stringValue)
        let id = try #require(made["id"]?.stringValue)
        #expect(made["role"] == .string("user"))
        let zones = fixture.url + "/database/1/iCloud.com.example.App/development/private/zones/list"
        #expect(Self.curl(zones, Self.bearer(carol)).status == 200)
        #expect(Self.curl(fixture.url + "/admin/1/credentials/revoke", post + Self.bearer(ops) + ["-d", #"{"id":"\#(id)"}"#]).status == 200)
        #expect(Self.curl(zones, Self.bearer(carol)).status == 401)
        #expect(Self.curl(fixture.url + "/admin/1/credentials/revoke", post + Self.bearer(ops) + ["-d", #"{"id":"\#(id)"}"#]).status == 404)
        #expect(Self.curl(fixture.url + "/admin/1/credentials/create", post + Self.bearer(ops) + ["-d", #"{"account":"a b"}"#]).status == 400)
        // A server-to-server key registered through the operations call is listed as one.
        let keys = TemporaryDirectory("console-keys")
        _ = ProcessSpawner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keys.file("k.pem")], environment: [:])
        _ = ProcessSpawner.run("/usr/bin/openssl", ["ec", "-in", keys.file("k.pem"), "-pubout", "-out", keys.file("pub.pem")], environment: [:])
        let pem = ProcessSpawner.run("/bin/cat", [keys.file("pub.pem")], environment: [:]).stdout
        #expect(pem.contains("BEGIN PUBLIC KEY"), "\(pem)")
        let body = JSONValue.object([("account", .string("alice")), ("publicKey", .string(pem))]).serialized()
        let added = Self.curl(fixture.url + "/admin/1/keys/add", post + Self.bearer(ops) + ["-d", body])
        #expect(added.status == 200, "\(added)")
        let keyID = try #require(try JSONValue.parse(added.body)["id"]?.stringValue)
        let again = try JSONValue.parse(Self.curl(fixture.url + "/admin/1/credentials/list", post + Self.bearer(ops)).body)
        #expect(again["credentials"]?.arrayValue?.contains { $0["id"] == .string(keyID) && $0["kind"] == .string("server-key") } == true, "\(again)")
        #expect(Self.curl(fixture.url + "/admin/1/keys/add", post + Self.bearer(ops) + ["-d", #"{"account":"alice","publicKey":"nope"}"#]).status == 400)
        #expect(Self.curl(fixture.url + "/admin/1/nothing", post + Self.bearer(ops)).status == 404)
        #expect(fixture.stop() == 0)
    }
}
