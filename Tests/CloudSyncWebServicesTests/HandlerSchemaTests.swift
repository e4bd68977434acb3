import CloudSyncService
import CloudSyncCore
import Testing
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer

/// The `schema/…` extension endpoints: bodies, refusals and the JSON of diffs and checks.
@Suite struct HandlerSchemaTests {
    static let notes = #"DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE, tags LIST<STRING>, GRANT READ TO \"_world\");"#

    /// A call as `account`, whose credential carries the administrator role when `admin`.
    func call(_ f: WebServicesFixture, _ environment: String, _ tail: String, _ body: String = "{}", account: String? = "alice",
              admin: Bool = true, scope: String = "private") -> (status: Int, json: JSONValue) {
        let request = WebServicesRequest(method: "POST", path: "/database/1/\(f.container)/\(environment)/\(scope)/\(tail)",
                                         body: Array(body.utf8),
                                         caller: account.map { Caller(account: $0, standing: .credential(isAdmin: admin)) })
        let response = f.handler.handle(request)
        return (response.status, (try? JSONValue.parse(bytes: response.body)) ?? .null)
    }

    @Test func importExportAndDeployTravelAsJSON() throws {
        let f = try WebServicesFixture()
        let dry = call(f, "development", "schema/import", #"{"schema":"\#(Self.notes)","dryRun":true}"#)
        #expect(dry.status == 200)
        #expect(dry.json["applied"] == .bool(false))
        #expect(dry.json["changes"]?.arrayValue?.first?["change"] == .string("recordTypeAdded"))
        #expect(call(f, "development", "schema/export").json["schema"]?.stringValue?.contains("Note") == false)
        #expect(call(f, "development", "schema/import", #"{"schema":"\#(Self.notes)"}"#).json["applied"] == .bool(true))
        let exported = try #require(call(f, "development", "schema/export").json["schema"]?.stringValue)
        #expect(try SchemaParser.parse(exported) == SchemaParser.parse(Self.notes.replacingBackslashes()))
        let deploy = call(f, "development", "schema/deploy")
        #expect(deploy.json["deployed"] == .bool(true) && deploy.json["violations"]?.arrayValue?.isEmpty == true)
        #expect(call(f, "production", "schema/export").json["schema"]?.stringValue?.contains("Note") == true)
    }

    @Test func onlyAnAdministratorChangesTheSchema() throws {
        let f = try WebServicesFixture()
        // No account claims a container through the server: without the role, the first import is refused too.
        for (environment, tail, body) in [("development", "schema/import", #"{"schema":"\#(Self.notes)"}"#),
                                          ("development", "schema/deploy", "{}"), ("development", "schema/reset", "{}")] {
            let refused = call(f, environment, tail, body, account: "carol", admin: false)
            #expect(refused.status == 403, "\(tail) \(refused.json)")
            #expect(refused.json["serverErrorCode"] == .string("ACCESS_DENIED"), "\(refused.json)")
        }
        // Reading the schema and a dry run need no role.
        #expect(call(f, "development", "schema/export", account: "carol", admin: false).status == 200)
        #expect(call(f, "development", "schema/import", #"{"schema":"\#(Self.notes)","dryRun":true}"#, account: "carol", admin: false).status == 200)
        // An account the container names administers it without the role.
        #expect(call(f, "development", "schema/import", #"{"schema":"\#(Self.notes)"}"#).status == 200)
        try f.cloud.addAdministrator("dave", container: f.container, by: Caller(account: "ops", standing: .credential(isAdmin: true)))
        #expect(call(f, "development", "schema/deploy", account: "dave", admin: false).json["deployed"] == .bool(true))
        #expect(call(f, "development", "schema/reset", account: "carol", admin: false).status == 403)
    }

    @Test func aWiderGrantDeploysOnlyWhenAllowed() throws {
        let f = try WebServicesFixture()
        #expect(call(f, "development", "schema/import", #"{"schema":"DEFINE SCHEMA RECORD TYPE Post (title STRING);"}"#).status == 200)
        #expect(call(f, "development", "schema/deploy").json["deployed"] == .bool(true))
        let wider = #"{"schema":"DEFINE SCHEMA RECORD TYPE Post (title STRING, GRANT WRITE TO \"_icloud\");"}"#
        #expect(call(f, "development", "schema/import", wider).status == 200)
        let dry = call(f, "development", "schema/deploy", #"{"dryRun":true,"allowWiderGrants":true}"#)
        #expect(dry.json["widerGrants"]?.arrayValue?.first?["violation"] == .string("grantWidened"), "\(dry.json)")
        let refused = call(f, "development", "schema/deploy")
        #expect(refused.json["deployed"] == .bool(false), "\(refused.json)")
        #expect(refused.json["violations"]?.arrayValue?.first?["role"] == .string("_icloud"), "\(refused.json)")
        #expect(call(f, "development", "schema/deploy", #"{"allowWiderGrants":true}"#).json["deployed"] == .bool(true))
    }

    @Test func refusals() throws {
        let f = try WebServicesFixture()
        #expect(call(f, "development", "schema/export", account: nil).status == 401)
        #expect(call(f, "production", "schema/import", #"{"schema":"DEFINE SCHEMA"}"#).status == 400)
        #expect(call(f, "production", "schema/reset").status == 400)
        #expect(call(f, "development", "schema/import", #"{"schema":"DEFINE SCHEMA"}"#, scope: "public").status == 400)
        let bad = call(f, "development", "schema/import", #"{"schema":"DEFINE SCHEMA RECORD TYPE ("}"#)
        #expect(bad.status == 400 && bad.json["reason"]?.stringValue?.hasPrefix("schema: 1:") == true, "\(bad.json)")
        #expect(call(f, "development", "schema/import", "{}").status == 400)
    }

    @Test func everyChangeAndViolationRoundTrips() throws {
        let before = try SchemaParser.parse("DEFINE SCHEMA CREATE ROLE Old; RECORD TYPE A (n NUMBER, x STRING QUERYABLE, GRANT READ TO \"Old\"); RECORD TYPE Gone (y INT64);")
        let after = try SchemaParser.parse("DEFINE SCHEMA CREATE ROLE New; RECORD TYPE A (n DOUBLE, x STRING SORTABLE, z LIST<ASSET>, GRANT WRITE TO \"New\"); RECORD TYPE B (w BYTES);")
        let check = SchemaDeployCheck(development: after, production: before)
        #expect(!check.violations.isEmpty && check.diff.changes.count > 6)
        let decoded = try SchemaCodec.decodeCheck(SchemaCodec.encodeCheck(check, deployed: false))
        #expect(decoded == check)
    }
}

extension String {
    /// The text with JSON's `\"` escapes undone.
    func replacingBackslashes() -> String { String(self.split(separator: "\\", omittingEmptySubsequences: false).joined()) }
}
