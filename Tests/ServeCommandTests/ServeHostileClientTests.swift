import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The resident memory of a process in bytes (`VmRSS` of /proc/PID/status).
func residentBytes(_ pid: pid_t) -> Int {
    let status = BackgroundProcess.read("/proc/\(pid)/status")
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

/// `cloudsync serve` against hostile clients (issue 25, items 5 and 6), all through a real process.
@Suite("cloudsync serve: hostile clients")
struct ServeHostileClientTests {
    static let modifyPath = "/database/1/iCloud.com.example.App/development/private/records/modify"
    static let pollPath = "/database/1/iCloud.com.example.App/development/private/notifications/poll"

    /// 12 connections announce 30 MB each and send it, without a credential or with an unknown
    /// token: each is answered 401 from its headers and closed, so the server's memory does not
    /// grow with them (before, it read every byte: 24 such took it from 27 MB to 1.6 GB); an
    /// authenticated client still works.
    @Test func unauthenticatedBodiesAreRefusedUnread() throws {
        let fixture = try ServeFixture()
        defer { kill(fixture.process.pid, SIGKILL); _ = fixture.process.wait(seconds: 10) }
        let port = Int(fixture.url.split(separator: ":").last ?? "") ?? 0
        let before = residentBytes(fixture.process.pid)
        let chunk = [UInt8](repeating: 0x20, count: 1 << 20)
        var held: [RawClient] = []
        for index in 0..<12 {
            let connection = RawClient(port: UInt16(port), receiveTimeoutSeconds: 10, sendTimeoutSeconds: 10)
            held.append(connection)
            let credential = index % 2 == 0 ? "" : "Authorization: Bearer cst_forged-token\r\n"
            connection.send("POST \(Self.modifyPath) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            + credential + "Content-Length: \(30 << 20)\r\n\r\n")
            var sent = 0
            for _ in 0..<29 {  // all but the last MB
                let n = connection.sendCounting(chunk)
                sent += n
                if n < chunk.count { break }
            }
            let reply = connection.readAll()
            #expect(reply.hasPrefix("HTTP/1.1 401"), "connection \(index): \(reply.prefix(200))")
            #expect(reply.contains("AUTHENTICATION_FAILED"), "\(reply.prefix(400))")
            #expect(sent < 20 << 20, "connection \(index): the server took \(sent) bytes of a refused body")
        }
        let after = residentBytes(fixture.process.pid)
        #expect(after - before < 64 << 20, "serve grew from \(before >> 20) MB to \(after >> 20) MB")
        held.forEach { $0.close() }
        let (_, client) = fixture.client("legit")
        let saved = client.run(["record", "save", "Note", "n1", "--field", "title=still here"], device: "c")
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(fixture.log.contains("records/modify - 401 "), "\(fixture.log)")
    }

    /// 300 connections dribbling header bytes from 127.0.0.1 and 32 long polls held open do not
    /// lock out a client on 127.0.0.2: each of its answers comes within 1 s (before, it was
    /// locked out for the 30 s connection timeout). Long polls past 8 per device are 429 THROTTLED.
    @Test func slowHeadersAndLongPollsDoNotLockOutAnotherClient() throws {
        let fixture = try ServeFixture()
        defer { kill(fixture.process.pid, SIGKILL); _ = fixture.process.wait(seconds: 10) }
        let port = Int(fixture.url.split(separator: ":").last ?? "") ?? 0
        var slow: [RawClient] = []
        for _ in 0..<300 {
            let connection = RawClient(port: UInt16(port), receiveTimeoutSeconds: 1, sendTimeoutSeconds: 1)
            connection.send("POST \(Self.modifyPath) HTTP/1.1\r\nHost: x\r\n")
            slow.append(connection)
        }
        defer { slow.forEach { $0.close() } }
        func poll(_ device: String, from source: String) -> RawClient {
            let token = device.utf8.map { String($0, radix: 16) }.joined()
            let body = #"{"apnsToken":"\#(token)","timeout":20}"#
            let connection = RawClient(port: UInt16(port), receiveTimeoutSeconds: 10, sendTimeoutSeconds: 10, from: source)
            connection.send("POST \(Self.pollPath) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(fixture.token)\r\n"
                            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            return connection
        }
        var polls: [RawClient] = []
        for device in 1..<4 {
            for _ in 0..<8 { polls.append(poll("d\(device)", from: device < 2 ? "127.0.0.3" : "127.0.0.4")) }
        }
        // Nine polls of one device: whichever the server counts last (their order is the
        // server's, not the sending order, on a busy machine) is refused at once; the eight
        // others are held for their 20 s.
        let device0 = (0..<9).map { index in poll("d0", from: index < 8 ? "127.0.0.3" : "127.0.0.5") }
        polls += device0
        defer { polls.forEach { $0.close() } }
        var watched = device0.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let ready = Glibc.poll(&watched, nfds_t(watched.count), 15_000)
        let refused = watched.firstIndex { $0.revents != 0 }
        #expect(ready == 1, "exactly one of the nine polls is answered before the long poll's 20 s")
        let throttled = refused.map { device0[$0].readAll() } ?? ""
        #expect(throttled.hasPrefix("HTTP/1.1 429"), "\(throttled.prefix(300))")
        #expect(throttled.contains("\"serverErrorCode\":\"THROTTLED\""), "\(throttled)")
        #expect(throttled.lowercased().contains("retry-after: 5"), "\(throttled)")
        #expect(throttled.lowercased().contains("connection: close"), "a refused poller does not keep its connection")
        for round in 0..<5 {
            for connection in slow { connection.send("X") }  // still dribbling
            let answer = ProcessSpawner.run("/usr/bin/curl", [
                "-sS", "--max-time", "5", "--interface", "127.0.0.2", "-o", "/dev/null", "-w", "%{http_code} %{time_total}",
                "-H", "Authorization: Bearer " + fixture.token, "--data-binary", "{}",
                fixture.url + "/database/1/iCloud.com.example.App/development/private/zones/list",
            ], environment: ["PATH": "/usr/bin:/bin"])
            let parts = answer.stdout.split(separator: " ")
            #expect(parts.first == "200", "round \(round): \(answer.stdout) \(answer.stderr)")
            #expect((Double(parts.last ?? "") ?? 99) < 1, "round \(round): \(answer.stdout)")
        }
    }

    @Test func badLimitOptionsAreUsageErrors() throws {
        let home = TemporaryDirectory("serve-hostile-limits")
        let runner = BinaryRunner(home: home.path)
        for (bad, name) in [(["--max-body-memory", "12"], "--max-body-memory"), (["--max-body-memory", "1X"], "--max-body-memory"),
                            (["--header-timeout", "0"], "--header-timeout"), (["--header-timeout", "x"], "--header-timeout"),
                            (["--max-connections-per-address", "-1"], "--max-connections-per-address"),
                            (["--max-poll-wait", "0"], "--max-poll-wait"), (["--max-poll-wait", "61"], "--max-poll-wait")] {
            let result = runner.run(["serve", "--listen", "127.0.0.1:0"] + bad)
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains(name), "\(result.stderr)")
        }
    }
}
