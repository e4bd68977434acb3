@testable import CloudSyncHTTPServer
import CloudSyncCore
import Glibc
import TestSupport
import Testing

/// What the server decides before a body is read (issue 25, items 5 and 6): the handler's
/// `admit` on the head, the memory held by bodies in flight, the header timeout, the connections
/// kept from long polls and the per-address cap.
@Suite("HTTPServer: admission before the body")
struct HTTPServerAdmissionTests {
    static let refuseAnonymous: @Sendable (HTTPRequestHead) -> HTTPResponse? = { head in
        head.headers["Authorization"] == "Bearer good" ? nil
            : .json(status: 401, .object([("serverErrorCode", .string("AUTHENTICATION_FAILED")), ("reason", .string("no credential"))]))
    }

    /// A refused head is answered at once and the connection closed: the 10 MB body announced
    /// is never read (the client's writes fail), and the handler never runs.
    @Test func aRefusedHeadIsAnsweredAtOnceAndTheBodyIsNotRead() throws {
        let calls = Collected<Int>()
        let heads = Collected<HTTPRequestHead>()
        let harness = try ServerHarness(HTTPServerConfiguration(maxBodySize: 64 << 20), admit: { head in
            heads.append(head)
            return Self.refuseAnonymous(head)
        }) { _ in
            calls.append(1)
            return HTTPResponse(status: 200)
        }
        let client = RawClient(port: harness.port, receiveTimeoutSeconds: 10)
        defer { client.close() }
        client.send("POST /upload?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
        client.send([UInt8](repeating: 97, count: 1000))
        let started = MonotonicClock.now()
        let response = client.readAll()  // returns when the server closes
        #expect(MonotonicClock.now() - started < 5_000_000_000, "closed at once, not at a timeout")
        #expect(response.hasPrefix("HTTP/1.1 401"), "\(response)")
        #expect(response.lowercased().contains("connection: close"), "\(response)")
        #expect(try HTTPServerLimitTests.body(response)["serverErrorCode"]?.stringValue == "AUTHENTICATION_FAILED")
        // The rest of the body has nowhere to go: the server closed its side.
        var refused = false
        for _ in 0..<200 where !refused {
            refused = !client.send([UInt8](repeating: 97, count: 65_536))
        }
        #expect(refused, "the server kept reading a refused body")
        #expect(calls.all.isEmpty)
        #expect(heads.all.first?.path == "/upload" && heads.all.first?.queryValue("x") == "1")
        #expect(heads.all.first?.remoteAddress == "127.0.0.1")
        #expect(eventually { harness.log.map(\.status) == [401] })
    }

    /// An admitted head goes on: its body is read and the handler answers.
    @Test func anAdmittedHeadReachesTheHandlerWithItsBody() throws {
        let harness = try ServerHarness(admit: Self.refuseAnonymous) { request in
            HTTPResponse(status: 200, body: Array("got \(request.body.count)".utf8))
        }
        let good = ServerHarness.curl(["-H", "Authorization: Bearer good", "--data-binary", String(repeating: "b", count: 5000),
                                       harness.base + "/x"])
        #expect(good.stdout == "got 5000", "\(good.stderr)")
        let bad = ServerHarness.curl(["-w", "%{http_code}", "-o", "/dev/null", "--data-binary", "x", harness.base + "/x"])
        #expect(bad.stdout == "401", "\(bad.stderr)")
    }

    /// Bodies in flight are bounded as a whole: past `maxBodyMemory` a request is answered 503
    /// (`bodyMemoryFull`) with Retry-After and closed, unread; the bytes are given back when the
    /// requests complete.
    @Test func bodiesInFlightAreBoundedAsAWhole() throws {
        var configuration = HTTPServerConfiguration(maxBodySize: 1 << 20)
        configuration.maxBodyMemory = 2 << 20
        let harness = try ServerHarness(configuration) { request in
            HTTPResponse(status: 200, body: Array("got \(request.body.count)".utf8))
        }
        let size = 1 << 20
        let holders = (0..<2).map { _ in RawClient(port: harness.port) }
        for holder in holders {
            holder.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: \(size)\r\n\r\n")
            holder.send([UInt8](repeating: 97, count: size / 2))
        }
        #expect(eventually { harness.server.lock.withLock { harness.server.bodyBytesHeld } == 2 << 20 })
        let third = RawClient(port: harness.port, receiveTimeoutSeconds: 10)
        third.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        let refused = third.readAll()
        third.close()
        #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused)")
        #expect(refused.lowercased().contains("retry-after: 1"), "\(refused)")
        #expect(try HTTPServerLimitTests.body(refused)["error"]?.stringValue == "bodyMemoryFull")
        // A chunked body is counted as it arrives, and refused the same way.
        let chunked = RawClient(port: harness.port, receiveTimeoutSeconds: 10)
        chunked.send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n" + String(repeating: "c", count: 512) + "\r\n")
        let refusedChunked = chunked.readAll()
        chunked.close()
        #expect(refusedChunked.hasPrefix("HTTP/1.1 503"), "\(refusedChunked)")
        for holder in holders {
            holder.send([UInt8](repeating: 97, count: size / 2))
            #expect(holder.readResponse().hasSuffix("got \(size)"))
            holder.close()
        }
        #expect(eventually { harness.server.lock.withLock { harness.server.bodyBytesHeld } == 0 })
        let after = ServerHarness.curl(["--data-binary", String(repeating: "d", count: 1000), harness.base + "/a"])
        #expect(after.stdout == "got 1000", "\(after.stderr)")
    }

    /// A client that dribbles header bytes is closed at the header timeout (here 0.5 s), not at
    /// the connection timeout (30 s) that let 300 such clients hold every connection.
    @Test func headersDribbledPastTheHeaderTimeoutCloseTheConnection() throws {
        var configuration = HTTPServerConfiguration()
        configuration.headerTimeout = .milliseconds(500)
        let harness = try ServerHarness(configuration) { _ in HTTPResponse(status: 200) }
        let client = RawClient(port: harness.port, receiveTimeoutSeconds: 1)
        defer { client.close() }
        let started = MonotonicClock.now()
        var open = client.send("GET / HTTP/1.1\r\n")
        while open && MonotonicClock.now() - started < 20_000_000_000 {
            usleep(100_000)
            open = client.send("X")
            var byte: UInt8 = 0
            if recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0 { open = false }
        }
        #expect(!open)
        #expect(MonotonicClock.now() - started < 10_000_000_000, "closed near the 0.5 s header timeout")
    }

    /// Long polls (the handler's `isLongPoll`) leave `reservedConnections` to the others: past
    /// `maxConnections - reservedConnections` they are answered 503 (`tooManyLongPolls`).
    @Test func longPollsLeaveTheReservedConnections() throws {
        var configuration = HTTPServerConfiguration(maxConnections: 6)
        configuration.reservedConnections = 3
        let gate = Gate()
        let harness = try ServerHarness(configuration, longPoll: { $0.path.hasSuffix("/poll") }) { request in
            if request.path.hasSuffix("/poll") { gate.wait() }
            return HTTPResponse(status: 200, body: Array("ok".utf8))
        }
        defer { gate.release() }
        let polls = (0..<3).map { _ in RawClient(port: harness.port) }
        for poll in polls { poll.send("POST /poll HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n") }
        #expect(eventually { gate.waiters == 3 })
        let fourth = RawClient(port: harness.port, receiveTimeoutSeconds: 10)
        fourth.send("POST /poll HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let refused = fourth.readResponse()
        fourth.close()
        #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused)")
        #expect(refused.lowercased().contains("connection: close"), "\(refused)")
        #expect(try HTTPServerLimitTests.body(refused)["error"]?.stringValue == "tooManyLongPolls")
        let other = ServerHarness.curl(["--max-time", "5", harness.base + "/other"])
        #expect(other.stdout == "ok", "\(other.stderr)")
        gate.release()
        for poll in polls {
            #expect(poll.readResponse().hasSuffix("ok"))
            poll.close()
        }
    }

    /// `maxConnectionsPerAddress`: one address cannot hold more; another address still connects.
    @Test func oneAddressCannotTakeMoreThanItsShare() throws {
        let harness = try ServerHarness(HTTPServerConfiguration(maxConnectionsPerAddress: 2)) { _ in
            HTTPResponse(status: 200, body: Array("ok".utf8))
        }
        let held = (0..<2).map { _ in RawClient(port: harness.port) }
        for client in held { client.send("GET / HTTP/1.1\r\n") }  // headers never finished
        #expect(eventually { harness.server.lock.withLock { harness.server.connections.count } == 2 })
        let third = RawClient(port: harness.port, receiveTimeoutSeconds: 5)
        third.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(third.readAll() == "", "closed without an answer")
        third.close()
        let elsewhere = RawClient(port: harness.port, receiveTimeoutSeconds: 5, from: "127.0.0.2")
        elsewhere.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(elsewhere.readResponse().hasSuffix("ok"))
        elsewhere.close()
        held.forEach { $0.close() }
    }

    /// `connectionsKeptForNewAddresses`: three addresses, each within its per-address bound, fill
    /// the table but its last slots; they get no more, and a fourth address still gets in.
    @Test func aFewAddressesCannotFillTheTableTogether() throws {
        var configuration = HTTPServerConfiguration(maxConnections: 12, maxConnectionsPerAddress: 4)
        configuration.connectionsKeptForNewAddresses = 3
        let harness = try ServerHarness(configuration) { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        var held: [RawClient] = []
        for address in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
            for _ in 0..<3 {
                let client = RawClient(port: harness.port, from: address)
                client.send("GET / HTTP/1.1\r\n")  // headers never finished
                held.append(client)
            }
        }
        #expect(eventually { harness.server.lock.withLock { harness.server.connections.count } == 9 })
        // The table is crowded (3 free = the kept ones): an address holding 3 gets no 4th,
        // although its own bound (4) would allow it.
        let fourth = RawClient(port: harness.port, receiveTimeoutSeconds: 5, from: "127.0.0.2")
        fourth.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(fourth.readAll() == "", "closed without an answer")
        fourth.close()
        #expect(harness.server.crowdedConnectionsRefused == 1)
        let newcomer = RawClient(port: harness.port, receiveTimeoutSeconds: 5, from: "127.0.0.5")
        newcomer.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(newcomer.readResponse().hasSuffix("ok"))
        newcomer.close()
        held.forEach { $0.close() }
    }

    @Test func badLimitsAreRefused() {
        var configuration = HTTPServerConfiguration(maxBodySize: 1 << 20)
        configuration.maxBodyMemory = 1000
        #expect(configuration.problem()?.contains("body memory") == true)
        configuration = HTTPServerConfiguration(maxConnections: 4)
        configuration.reservedConnections = 4
        #expect(configuration.problem()?.contains("reserved") == true)
        configuration = HTTPServerConfiguration()
        configuration.headerTimeout = .milliseconds(1)
        #expect(configuration.problem()?.contains("header timeout") == true)
        configuration = HTTPServerConfiguration(maxConnections: 4)
        configuration.connectionsKeptForNewAddresses = 4
        #expect(configuration.problem()?.contains("kept for new addresses") == true)
    }
}
