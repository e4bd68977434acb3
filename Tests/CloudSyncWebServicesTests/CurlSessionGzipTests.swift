import CloudSyncHTTPServer
import Synchronization
import Testing
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer

/// The libcurl client asks for gzip (issue 28) and hands the decoded body over: checked against
/// the real HTTP server, which compresses replies of 1 KB and more when asked.
@Suite struct CurlSessionGzipTests {
    @Test func theClientAsksForGzipAndReadsTheDecodedReply() throws {
        let text = Array(String(repeating: "{\"recordName\":\"r\",\"fields\":{}},", count: 200).utf8)
        let seen = Mutex<[String]>([])
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0),
                                handler: HTTPClosureHandler { request in
                                    seen.withLock { $0.append(request.headers["Accept-Encoding"] ?? "-") }
                                    return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: text)
                                })
        try server.start()
        defer { server.stop(grace: .seconds(1)) }
        let reply = try CurlSession().perform(method: "POST", url: "http://127.0.0.1:\(server.boundPort ?? 0)/x", headers: [],
                                              body: Array("{}".utf8), connectTimeout: 5, timeout: 10, maxReplyBytes: 1 << 20)
        #expect(seen.withLock { $0 } == ["gzip"])
        #expect(reply.header("Content-Encoding") == "gzip")
        #expect(reply.body == text)
    }
}
