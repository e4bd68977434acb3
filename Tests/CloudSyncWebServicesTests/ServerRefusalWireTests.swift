import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebServer
import TestSupport
import Testing

/// `WebServicesHTTPHandler` on a real `HTTPServer`: the refusals the HTTP server makes itself go
/// out as the CloudKit error bodies they were when the server wrote them (issue 31, item 3), and
/// `notifications/poll` is the handler's long poll.
@Suite("HTTP server refusals on the wire, worded by the Web Services handler")
struct ServerRefusalWireTests {
    static func serve(_ body: (UInt16) throws -> Void) throws {
        let directory = TemporaryDirectory("refusal-wire")
        let cloud = try SQLiteCloud(path: directory.file("cloud.sqlite"))
        let handler = WebServicesHTTPHandler(handler: WebServicesHandler(cloudFor: { _ throws(CloudError) in cloud }),
                                             authenticator: StoredCredentialAuthenticator(service: cloud))
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, maxBodySize: 1_000),
                                handler: handler)
        try server.start()
        defer { server.stop(grace: .seconds(1)) }
        try body(try #require(server.boundPort))
    }

    /// The bytes after the status line and `Date`: the header fields in order, then the body.
    static func fieldsAndBody(_ response: String) -> [String] {
        response.split(separator: "\r\n", omittingEmptySubsequences: false).dropFirst()
            .filter { !$0.lowercased().hasPrefix("date:") }.map(String.init)
    }

    @Test func aBodyTooLargeIsTheCloudKitBodyWithTheConnectionClosed() throws {
        try Self.serve { port in
            let client = RawClient(port: port)
            defer { client.close() }
            client.send("POST /database/1/iCloud.a.b/development/private/records/modify HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
            let response = client.readAll()
            let body = #"{"serverErrorCode":"BAD_REQUEST","reason":"the request body is larger than 1000 bytes","ckErrorCode":"limitExceeded"}"#
            #expect(response.hasPrefix("HTTP/1.1 400 "), "\(response)")
            #expect(Self.fieldsAndBody(response).filter { !$0.isEmpty }.sorted()
                    == ["Connection: close", "Content-Length: \(body.utf8.count)", "Content-Type: application/json; charset=utf-8", body].sorted(),
                    "\(response)")
            #expect(response.hasSuffix("\r\n\r\n" + body))
        }
    }

    @Test func aBadTargetIsTheCloudKitBadRequest() throws {
        try Self.serve { port in
            let client = RawClient(port: port)
            defer { client.close() }
            client.send("GET /database/1/iCloud.a.b/development/private/users/current%00/../x HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = client.readResponse()
            #expect(response.hasPrefix("HTTP/1.1 400 "), "\(response)")
            #expect(response.hasSuffix("\r\n\r\n" + #"{"serverErrorCode":"BAD_REQUEST","reason":"the request path holds a NUL character (%00)"}"#),
                    "\(response)")
        }
    }

    @Test func notificationsPollIsTheLongPoll() throws {
        let directory = TemporaryDirectory("refusal-wire")
        let cloud = try SQLiteCloud(path: directory.file("cloud.sqlite"))
        let handler = WebServicesHTTPHandler(handler: WebServicesHandler(cloudFor: { _ throws(CloudError) in cloud }),
                                             authenticator: StoredCredentialAuthenticator(service: cloud))
        func request(_ tail: String) -> HTTPRequest {
            HTTPRequest(method: "POST", path: "/database/1/iCloud.a.b/development/private/" + tail, query: [], headers: [:], body: [])
        }
        #expect(handler.isLongPoll(request("notifications/poll")))
        #expect(!handler.isLongPoll(request("records/modify")))
        #expect(!handler.isLongPoll(request("records/changes")))
    }
}
