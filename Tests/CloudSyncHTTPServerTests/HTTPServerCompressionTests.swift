@testable import CloudSyncHTTPServer
import CloudSyncCore
import Glibc
import TestSupport
import Testing

/// Compression (issue 28): replies of 1 KB and more are gzip-compressed for a client that asks,
/// checked with decoders we did not write (curl --compressed, Python's gzip); compressed request
/// bodies are decompressed with the body limit applied after decompression.
@Suite("HTTPServer: gzip replies and request bodies")
struct HTTPServerCompressionTests {
    static let large = String((0..<400).map { "line \($0) of a reply that repeats itself\n" }.joined())

    func harness(maxBodySize: Int = 16 << 20) throws -> ServerHarness {
        try ServerHarness(HTTPServerConfiguration(maxBodySize: maxBodySize)) { request in
            switch request.path {
            case "/large": HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(Self.large.utf8))
            case "/small": HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("tiny".utf8))
            case "/error": .json(status: 404, .object([("serverErrorCode", .string("NOT_FOUND")),
                                                            ("reason", .string(String(repeating: "missing ", count: 300)))]))
            default: HTTPResponse(status: 200, body: Array("\(request.body.count):".utf8) + request.body.prefix(16))
            }
        }
    }

    @Test func curlCompressedDecodesWhatTheServerCompressed() throws {
        let h = try harness()
        let headers = ServerHarness.curl(["--compressed", "-D", "-", "-o", "/dev/null", h.base + "/large"])
        #expect(headers.stdout.lowercased().contains("content-encoding: gzip"), "\(headers.stdout)")
        #expect(headers.stdout.lowercased().contains("vary: accept-encoding"))
        let body = ServerHarness.curl(["--compressed", h.base + "/large"])
        #expect(body.stdout == Self.large)
        // On the wire: the compressed size, far below the text's.
        let wire = ServerHarness.curl(["-H", "Accept-Encoding: gzip", "-o", "/dev/null", "-w", "%{size_download}", h.base + "/large"])
        let size = try #require(Int(wire.stdout))
        #expect(size > 0 && size < Self.large.utf8.count / 4, "\(size) bytes on the wire")
    }

    @Test func pythonGzipReadsTheReplyAndPlainClientsGetPlainText() throws {
        let h = try harness()
        let script = """
        import gzip, sys, urllib.request
        def get(path, coding):
            headers = {"Accept-Encoding": coding} if coding else {}
            try:
                with urllib.request.urlopen(urllib.request.Request(sys.argv[1] + path, headers=headers)) as reply:
                    return reply.headers.get("Content-Encoding"), reply.read()
            except urllib.error.HTTPError as error:
                return error.headers.get("Content-Encoding"), error.read()
        coding, body = get("/large", "gzip")
        assert coding == "gzip", coding
        sys.stdout.write(gzip.decompress(body).decode())
        coding, body = get("/large", None)
        assert coding is None and body.decode().startswith("line 0"), coding
        coding, body = get("/large", "gzip;q=0, identity")
        assert coding is None, coding
        coding, body = get("/small", "gzip")
        assert coding is None and body == b"tiny", (coding, body)
        coding, body = get("/error", "deflate, gzip")
        assert coding == "gzip" and b"NOT_FOUND" in gzip.decompress(body), coding
        """
        let result = ProcessSpawner.run("/usr/bin/env", ["python3", "-c", script, h.base], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.large)
    }

    @Test func aGzipRequestBodyIsDecompressedAndABombStopsAtTheLimit() throws {
        let h = try harness(maxBodySize: 100_000)
        let script = """
        import gzip, json, sys, urllib.request, urllib.error
        \(PythonHTTPClient.call)
        ok = call(sys.argv[1] + "/echo", gzip.compress(b"hello, compressed world"), headers={"Content-Encoding": "gzip"}, raw=True)
        print(ok[0], ok[1].decode())
        bomb = gzip.compress(b"\\0" * 50_000_000)  # 50 MB in about 50 KB
        status, body = call(sys.argv[1] + "/echo", bomb, headers={"Content-Encoding": "gzip"})
        print(len(bomb) < 100_000, status, body["error"])
        status, body = call(sys.argv[1] + "/echo", b"not gzip at all", headers={"Content-Encoding": "gzip"})
        print(status, body["error"])
        status, body = call(sys.argv[1] + "/echo", b"x", headers={"Content-Encoding": "br"})
        print(status, body["error"])
        """
        let result = ProcessSpawner.run("/usr/bin/env", ["python3", "-c", script, h.base], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == ["200 23:hello, compresse", "True 413 bodyTooLarge",
                                                         "400 unreadableGzipBody", "415 unsupportedContentEncoding"])
    }

    @Test func gzipRoundTripsAndRefusesPastTheLimit() throws {
        let text = Array(Self.large.utf8)
        let compressed = try #require(Gzip.compress(text))
        #expect(compressed.count < text.count / 4)
        #expect(try Gzip.decompress(compressed, limit: text.count) == text)
        #expect(throws: Gzip.Failure.tooLarge(limit: text.count - 1)) { try Gzip.decompress(compressed, limit: text.count - 1) }
        #expect(throws: Gzip.Failure.malformed) { try Gzip.decompress(Array(compressed.dropLast(5)), limit: 1 << 20) }
        #expect(Gzip.accepted(by: "gzip, deflate"))
        #expect(Gzip.accepted(by: "br;q=1.0, GZIP;q=0.5"))
        #expect(!Gzip.accepted(by: "gzip;q=0"))
        #expect(!Gzip.accepted(by: "deflate"))
        #expect(!Gzip.accepted(by: nil))
    }
}
