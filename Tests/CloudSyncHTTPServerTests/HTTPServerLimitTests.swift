@testable import CloudSyncHTTPServer
import CloudSyncCore
import Glibc
import TestSupport
import Testing

@Suite("HTTPServer: limits are enforced before the handler")
struct HTTPServerLimitTests {
    /// The JSON body of a raw response.
    static func body(_ response: String) throws -> JSONValue {
        try JSONValue.parse(String(response[try #require(response.firstRange(of: "\r\n\r\n")).upperBound...]))
    }

    @Test func anOversizeContentLengthIs413WithoutTheBodyBeingSent() throws {
        let calls = Collected<Int>()
        let harness = try ServerHarness(HTTPServerConfiguration(maxBodySize: 1_000)) { _ in
            calls.append(1)
            return HTTPResponse(status: 200)
        }
        let client = RawClient(port: harness.port)
        defer { client.close() }
        // Headers only: the server must answer without waiting for 100 MB that never come.
        client.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
        let response = client.readAll()
        #expect(response.hasPrefix("HTTP/1.1 413"), "\(response)")
        #expect(response.lowercased().contains("connection: close"), "\(response)")
        let body = try Self.body(response)
        #expect(body["error"]?.stringValue == "bodyTooLarge")
        #expect(body["reason"]?.stringValue?.contains("1000 bytes") == true)
        #expect(calls.all.isEmpty)
        #expect(eventually { harness.log.map(\.status) == [413] })
    }

    @Test func anAbsurdContentLengthIs400() throws {
        let harness = try ServerHarness(HTTPServerConfiguration(maxBodySize: 1_000)) { _ in HTTPResponse(status: 200) }
        let client = RawClient(port: harness.port)
        defer { client.close() }
        client.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999999\r\n\r\n")
        let response = client.readAll()
        #expect(response.hasPrefix("HTTP/1.1 413") || response.hasPrefix("HTTP/1.1 400"), "\(response)")
    }

    @Test func aChunkedBodyIs413OnceItsBytesPassTheLimit() throws {
        let calls = Collected<Int>()
        let harness = try ServerHarness(HTTPServerConfiguration(maxBodySize: 1_000)) { _ in
            calls.append(1)
            return HTTPResponse(status: 200)
        }
        let client = RawClient(port: harness.port)
        defer { client.close() }
        client.send("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "200\r\n" + String(repeating: "a", count: 512) + "\r\n"
        // 1,536 bytes in three chunks, and the chunked body never ends: the answer must not wait for it.
        client.send(chunk + chunk + chunk)
        let response = client.readAll()
        #expect(response.hasPrefix("HTTP/1.1 413"), "\(response)")
        #expect(try Self.body(response)["error"]?.stringValue == "bodyTooLarge")
        #expect(calls.all.isEmpty)
    }

    @Test func aChunkedBodyWithinTheLimitReachesTheHandler() throws {
        let harness = try ServerHarness(HTTPServerConfiguration(maxBodySize: 1_000)) { request in
            HTTPResponse(status: 200, body: Array("got \(request.body.count)".utf8))
        }
        let result = ServerHarness.curl(["-H", "Transfer-Encoding: chunked", "--data-binary", String(repeating: "b", count: 900),
                                         harness.base + "/small"])
        #expect(result.stdout == "got 900", "\(result.stderr)")
    }

    @Test func aMalformedRequestLineIs400() throws {
        let calls = Collected<Int>()
        let harness = try ServerHarness { _ in
            calls.append(1)
            return HTTPResponse(status: 200)
        }
        let client = RawClient(port: harness.port)
        defer { client.close() }
        client.send("THIS IS NOT HTTP AT ALL\r\n\r\n")
        let response = client.readAll()
        #expect(response.hasPrefix("HTTP/1.1 400") || response.hasPrefix("HTTP/1.0 400"), "\(response)")
        #expect(calls.all.isEmpty)
    }

    @Test func overloadIs503WithRetryAfter() throws {
        let gate = Gate()
        let harness = try ServerHarness(HTTPServerConfiguration(maxConcurrentRequests: 1, maxQueuedRequests: 1,
                                                                retryAfterSeconds: 7)) { _ in
            gate.wait()
            return HTTPResponse(status: 200, body: Array("done".utf8))
        }
        let answers = Collected<String>()
        let first = RawClient(port: harness.port), second = RawClient(port: harness.port)
        defer { first.close(); second.close() }
        let request = "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        runOnThreads(1) { _ in
            // One running, one queued…
            first.send(request)
            #expect(eventually { gate.waiters == 1 })
            second.send(request)
            #expect(eventually { harness.server.lock.withLock { harness.server.queuedHandlers } == 1 })
            // …so a third is turned away at once.
            let third = RawClient(port: harness.port)
            defer { third.close() }
            third.send(request)
            answers.append(third.readAll())
            gate.release()
        }
        let busy = try #require(answers.all.first)
        #expect(busy.hasPrefix("HTTP/1.1 503"), "\(busy)")
        #expect(busy.lowercased().contains("retry-after: 7\r\n"))
        let body = try Self.body(busy)
        #expect(body["error"]?.stringValue == "busy")
        #expect(body["retryAfter"]?.int64Value == 7)
        #expect(first.readAll().hasSuffix("\r\n\r\ndone"))
        #expect(second.readAll().hasSuffix("\r\n\r\ndone"))
    }

    @Test func aSlowlorisClientIsDroppedWhileOthersAreServed() throws {
        let harness = try ServerHarness(HTTPServerConfiguration(connectionTimeout: .seconds(1))) { _ in
            HTTPResponse(status: 200, body: Array("fine".utf8))
        }
        let slow = RawClient(port: harness.port, receiveTimeoutSeconds: 1)
        defer { slow.close() }
        // Headers dribbled every 200 ms, each line resetting any idle timer, for up to 20 s.
        var dropped = false
        var sent = 0
        slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
        while sent < 100 {
            usleep(200_000)
            if !slow.send("X-Dribble-\(sent): y\r\n") { dropped = true; break }
            sent += 1
            if sent % 5 == 0 {
                // Meanwhile other clients are served.
                #expect(ServerHarness.curl([harness.base + "/other"]).stdout == "fine")
            }
        }
        #expect(dropped, "a client dribbling headers for \(sent * 200) ms was still connected")
    }

    @Test func connectionsAreBounded() throws {
        let harness = try ServerHarness(HTTPServerConfiguration(maxConnections: 2)) { _ in HTTPResponse(status: 200) }
        let holders = [RawClient(port: harness.port), RawClient(port: harness.port)]
        defer { holders.forEach { $0.close() } }
        for holder in holders { holder.send("GET / HTTP/1.1\r\nHost: x\r\n") }
        #expect(eventually { harness.server.lock.withLock { harness.server.connections.count } == 2 })
        let refused = RawClient(port: harness.port, receiveTimeoutSeconds: 5)
        defer { refused.close() }
        refused.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(refused.readAll() == "")
        // A finished connection frees its place.
        holders[0].send("Connection: close\r\n\r\n")
        #expect(holders[0].readAll().hasPrefix("HTTP/1.1 200"))
        #expect(eventually { harness.server.lock.withLock { harness.server.connections.count } == 1 })
        #expect(ServerHarness.curl(["-o", "/dev/null", "-w", "%{http_code}", harness.base + "/"]).stdout == "200")
    }

    @Test func perAddressConnectionsAreBounded() throws {
        let harness = try ServerHarness(HTTPServerConfiguration(maxConnectionsPerAddress: 1)) { _ in
            HTTPResponse(status: 200)
        }
        let holder = RawClient(port: harness.port)
        defer { holder.close() }
        holder.send("GET / HTTP/1.1\r\nHost: x\r\n")  // an open, unfinished request
        #expect(eventually { harness.server.lock.withLock { harness.server.connections.count } == 1 })
        let refused = RawClient(port: harness.port, receiveTimeoutSeconds: 5)
        defer { refused.close() }
        refused.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(refused.readAll() == "")
    }
}
