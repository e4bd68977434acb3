@testable import CloudSyncHTTPServer
import CloudSyncCore
import Glibc
import Testing

/// A handler that answers with what it received, as JSON.
let echo: @Sendable (HTTPRequest) -> HTTPResponse = { request in
    var response = HTTPResponse.json(.object([
        ("method", .string(request.method)),
        ("path", .string(request.path)),
        ("query", .array(request.query.map { .array([.string($0.name), .string($0.value)]) })),
        ("xTest", .string(request.headers["x-TEST"] ?? "")),
        ("body", .string(String(decoding: request.body, as: UTF8.self))),
        ("remote", .string(request.remoteAddress)),
    ]))
    response.headers.add("X-Echo", "yes")
    response.logAccount = "alice"
    return response
}

@Suite("HTTPServer: requests reach the handler and answers reach real clients")
struct HTTPServerRoundTripTests {
    @Test func getRoundTripsThroughCurl() throws {
        let harness = try ServerHarness(handler: echo)
        let result = ServerHarness.curl(["-i", "-H", "X-Test: hello", harness.base + "/echo/a%20b?x=1&y=two%20words&flag"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("HTTP/1.1 200"))
        #expect(result.stdout.lowercased().contains("x-echo: yes"))
        let body = try JSONValue.parse(String(result.stdout[result.stdout.firstRange(of: "\r\n\r\n")!.upperBound...]))
        #expect(body["method"]?.stringValue == "GET")
        #expect(body["path"]?.stringValue == "/echo/a b")
        #expect(body["query"] == .array([.array([.string("x"), .string("1")]), .array([.string("y"), .string("two words")]),
                                         .array([.string("flag"), .string("")])]))
        #expect(body["xTest"]?.stringValue == "hello")
        #expect(body["remote"]?.stringValue == "127.0.0.1")
    }

    @Test func postBodyRoundTripsAndEachRequestIsLoggedOnce() throws {
        let harness = try ServerHarness(handler: echo)
        let payload = String(repeating: "0123456789", count: 5_000)
        let result = ServerHarness.curl(["-X", "POST", "--data-binary", payload,
                                         harness.base + "/database/1/c/development/private/records/modify?ckWebAuthToken=SECRET123&z=1"])
        #expect(result.status == 0, "\(result.stderr)")
        let body = try JSONValue.parse(result.stdout)
        #expect(body["method"]?.stringValue == "POST")
        #expect(body["body"]?.stringValue == payload)
        #expect(eventually { harness.log.count == 1 })
        let entry = try #require(harness.log.first)
        #expect(entry.method == "POST")
        #expect(entry.status == 200)
        #expect(entry.account == "alice")
        #expect(entry.target == "/database/1/c/development/private/records/modify?ckWebAuthToken=-&z=1")
        #expect(!entry.line.contains("SECRET123"))
        #expect(entry.line.hasPrefix("POST /database/1/c/development/private/records/modify?ckWebAuthToken=-&z=1 alice 200 "))
    }

    @Test func sixtyFourConcurrentClientsEachGetTheirOwnAnswer() throws {
        // The handler holds every request until all 64 are inside it at once, so the answers
        // prove 64 requests were in flight together, not one after another.
        let together = Collected<Int>()
        let arrived = Gate()
        let harness = try ServerHarness(HTTPServerConfiguration(maxConnections: 100, maxConcurrentRequests: 64)) { request in
            together.append(0)
            if together.all.count >= 64 { arrived.release() }
            arrived.wait()
            return HTTPResponse(status: 200, body: request.body + Array(" ok \(together.all.count)".utf8))
        }
        let answers = Collected<(Int, String)>()
        runOnThreads(64) { index in
            let client = RawClient(port: harness.port)
            defer { client.close() }
            client.send("POST /n HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(String(index).utf8.count)\r\n\r\n\(index)")
            answers.append((index, client.readAll()))
        }
        #expect(answers.all.count == 64)
        for (index, answer) in answers.all {
            #expect(answer.hasPrefix("HTTP/1.1 200"), "client \(index): \(answer)")
            #expect(answer.hasSuffix("\r\n\r\n\(index) ok 64"), "client \(index): \(answer)")
        }
    }

    @Test func tlsWithASelfSignedCertificate() throws {
        let folder = "/tmp/cloudsync-http-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o700)
        defer { _ = ProcessSpawnerShim.run("/bin/rm", ["-rf", folder]) }
        let made = ProcessSpawnerShim.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem",
            "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let tls = HTTPServerConfiguration.TLS(certificatePath: folder + "/cert.pem", privateKeyPath: folder + "/key.pem")
        let harness = try ServerHarness(HTTPServerConfiguration(maxBodySize: 1_000, tls: tls), handler: echo)
        let result = ServerHarness.curl(["--cacert", folder + "/cert.pem", "-X", "POST", "--data-binary", "secret body",
                                         "https://127.0.0.1:\(harness.port)/tls"])
        #expect(result.status == 0, "\(result.stderr)")
        let body = try JSONValue.parse(result.stdout)
        #expect(body["body"]?.stringValue == "secret body")
        #expect(body["path"]?.stringValue == "/tls")
        // Over TLS a chunked body past the limit is read, dropped and answered 413 at its end.
        let oversize = ServerHarness.curl(["--cacert", folder + "/cert.pem", "-H", "Transfer-Encoding: chunked",
                                           "--data-binary", String(repeating: "x", count: 1_500), "-w", " %{http_code}",
                                           "https://127.0.0.1:\(harness.port)/tls"])
        #expect(oversize.stdout.hasSuffix("} 413"), "\(oversize.stdout) \(oversize.stderr)")
        #expect(oversize.stdout.contains("bodyTooLarge"))
        // Without the certificate as a trust anchor the client refuses the server.
        let untrusted = ServerHarness.curl(["https://127.0.0.1:\(harness.port)/tls"])
        #expect(untrusted.status != 0)
    }

    @Test func everyAddressListensWhenTheHostIsAStar() throws {
        let harness = try ServerHarness(HTTPServerConfiguration(host: "*"), handler: echo)
        #expect(harness.port != 0)
        let result = ServerHarness.curl(["http://127.0.0.1:\(harness.port)/any"])
        #expect(try JSONValue.parse(result.stdout)["path"]?.stringValue == "/any", "\(result.stderr)")
    }

    @Test func aMissingTLSFileIsATypedError() {
        let tls = HTTPServerConfiguration.TLS(certificatePath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
        let server = HTTPServer(configuration: HTTPServerConfiguration(tls: tls), handler: HTTPClosureHandler(echo))
        #expect(throws: HTTPServerError.unreadableTLSFile("/nonexistent/key.pem", "No such file or directory")) {
            try server.start()
        }
    }

    @Test func aPortInUseIsATypedError() throws {
        let harness = try ServerHarness(handler: echo)
        let second = HTTPServer(configuration: HTTPServerConfiguration(port: harness.port), handler: HTTPClosureHandler(echo))
        do {
            try second.start()
            Issue.record("two servers bound one port")
        } catch {
            guard case .cannotListen(let address, _) = error else { Issue.record("\(error)"); return }
            #expect(address == "127.0.0.1:\(harness.port)")
        }
    }
}

/// Runs a helper program (openssl, rm) to completion.
enum ProcessSpawnerShim {
    static func run(_ path: String, _ arguments: [String]) -> TestSupport.ProcessResult {
        TestSupport.ProcessSpawner.run(path, arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": "/tmp"])
    }
}

import TestSupport
