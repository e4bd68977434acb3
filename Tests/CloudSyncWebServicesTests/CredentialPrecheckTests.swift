import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncHTTPServer
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer
import TestSupport
import Testing

/// `StoredCredentialAuthenticator.precheck`: what is refused from the head alone (issue 25, item 5).
@Suite("Credential pre-check from the headers")
struct CredentialPrecheckTests {
    static let now: Int64 = 1_800_000_000_000

    @Test func refusesWhatTheHeadShowsToBeBad() throws {
        let directory = TemporaryDirectory("precheck")
        let cloud = try SQLiteCloud(path: directory.file("cloud.sqlite"))
        let token = try cloud.createToken(account: "alice").token
        let authenticator = StoredCredentialAuthenticator(service: cloud, clock: { Self.now })
        func check(_ headers: [(String, String)], _ query: [(String, String)] = []) -> CredentialRefusal? {
            authenticator.precheck(path: "/database/1/c/development/private/users/current", query: query, headers: headers)
        }
        #expect(check([("Authorization", "Bearer " + token)]) == nil)
        #expect(check([], [("ckWebAuthToken", token)]) == nil)
        let api = try cloud.createAPIToken(container: "iCloud.com.example.App").token
        #expect(check([], [("ckAPIToken", api)]) == nil)
        #expect(check([], [("ckAPIToken", "anything")]) == .malformedAPIToken)
        #expect(check([], [("ckAPIToken", String(repeating: "0", count: 64))]) == .unknownAPIToken)
        #expect(check([], [("ckAPIToken", "anything"), ("ckWebAuthToken", token)]) == nil, "a web token makes it the user's")
        #expect(check([("Content-Type", "application/json")]) == .missing)
        #expect(check([("Authorization", "Bearer cst_forged")]) == .unknownToken)
        #expect(check([], [("ckWebAuthToken", "cst_forged")]) == .unknownToken)
        #expect(check([("Authorization", "Basic abc")]) == .notBearer)
        #expect(check([("Authorization", "Bearer " + String(repeating: "x", count: 300))]) == .malformedToken)
        let date = ISO8601.format(milliseconds: Self.now)
        let stale = ISO8601.format(milliseconds: Self.now - 6 * 60 * 1000)
        let s2s = { (date: String) in
            [(ServerKeySignature.keyIDHeader, "abc"), (ServerKeySignature.dateHeader, date), (ServerKeySignature.signatureHeader, "AAAA")]
        }
        #expect(check(s2s(date)) == .unknownServerKey)
        #expect(check(s2s(stale)) == .dateOutsideWindow)
        #expect(check([(ServerKeySignature.keyIDHeader, "abc")]) == .incompleteSignature)
        for refusal in [CredentialRefusal.missing, .unknownToken, .revokedToken, .revokedAPIToken, .revokedServerKey, .dateOutsideWindow] {
            #expect(refusal.description.hasPrefix("authentication failed"))
        }
    }

    /// The reply of a refused head: 401 AUTHENTICATION_FAILED in the CloudKit error body, and
    /// the connection to be closed.
    @Test func theRefusalIsACloudKitErrorThatClosesTheConnection() throws {
        let handler = WebServicesHandler(cloudFor: { _ throws(CloudError) in throw CloudError(.internalError, "unused") },
                                         makeUUID: { "u" })
        let response = handler.refusalResponse(.unknownToken)
        #expect(response.status == 401)
        #expect(response.headers["Connection"] == "close")
        let json = try JSONValue.parse(bytes: response.body)
        #expect(json["serverErrorCode"]?.stringValue == "AUTHENTICATION_FAILED")
        #expect(json["reason"]?.stringValue == "authentication failed: the token is unknown")
    }
}
