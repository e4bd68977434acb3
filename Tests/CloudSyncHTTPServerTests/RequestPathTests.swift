@testable import CloudSyncHTTPServer
import CloudSyncCore
import TestSupport
import Testing

/// Issue 25, item 10: a path with a NUL or a `.`/`..` segment, raw or percent-encoded, is refused
/// (400, `badTarget`) before any handler sees it; libmicrohttpd would otherwise hand the handler a
/// path cut short at a decoded `%00`.
@Suite("request paths: NUL and dot segments")
struct RequestPathTests {
    func refusal(_ target: String) -> RequestPathError? {
        do throws(RequestPathError) {
            try RequestPath.check(rawTarget: Array(target.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func theCheckOfARawTarget() {
        for good in ["/", "/a/b", "/a/...", "/a/.b/c.", "/a/b?x=%00&y=..", "/a%2Fb", "/a/%", "/a/%0", "/a/%zz", "/a/b.."] {
            #expect(refusal(good) == nil, "\(good)")
        }
        let nul: [String] = ["/a%00", "/users/current%00/../../x", "/%00", "/a%00b"]
        for target in nul { #expect(refusal(target) == .nul, "\(target)") }
        let dots: [(String, String)] = [("/a/../b", ".."), ("/a/./b", "."), ("/..", ".."), ("/a/.", "."), ("/a/%2e%2E/b", ".."),
                                        ("/a/%2e", "."), ("/a/.%2e?q", ".."), ("..", "..")]
        for (target, segment) in dots { #expect(refusal(target) == .dotSegment(segment), "\(target)") }
        #expect(refusal("/a/..")?.description == "the request path holds a '..' segment; send it without '.' or '..' segments")
    }

    @Test func theServerRefusesThemBeforeTheHandler() throws {
        let harness = try ServerHarness { request in HTTPResponse(status: 200, body: Array(request.path.utf8)) }
        let fine = ServerHarness.curl(["--path-as-is", "-i", harness.base + "/a/b%20c"])
        #expect(fine.stdout.hasPrefix("HTTP/1.1 200") && fine.stdout.hasSuffix("/a/b c"), "\(fine.stdout)")
        for path in ["/users/current%00/../../x", "/a/../b", "/a/%2e%2e/b", "/a/./b"] {
            let result = ServerHarness.curl(["--path-as-is", "-i", harness.base + path])
            #expect(result.stdout.hasPrefix("HTTP/1.1 400"), "\(path): \(result.stdout)")
            #expect(result.stdout.contains(#""error":"badTarget""#), "\(path): \(result.stdout)")
        }
        // Each request on a kept-alive connection is checked on its own (the refusal closes it).
        let client = RawClient(port: harness.port)
        client.send("GET /a/b HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = client.readResponse()
        #expect(first.hasPrefix("HTTP/1.1 200") && first.hasSuffix("/a/b"), "\(first)")
        client.send("GET /a/%00 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse().hasPrefix("HTTP/1.1 400"))
        client.close()
        let again = RawClient(port: harness.port)
        again.send("GET /a/b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let next = again.readAll()
        again.close()
        #expect(next.hasPrefix("HTTP/1.1 200") && next.hasSuffix("/a/b"), "\(next)")
    }
}
