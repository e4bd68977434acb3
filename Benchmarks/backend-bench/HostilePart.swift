import BenchSupport
import CloudSyncService
import CloudSyncCore
import CloudSyncWebClient
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Issue 25 (`--hostile`): a legitimate client's latency (`zones/list` through HTTPCloud from
/// 127.0.0.1) against `cloudsync serve`, quiet and beside two attacks from other loopback
/// addresses: 300 connections dribbling header bytes (127.0.0.2) and 300 long polls of one
/// account (127.0.0.3…12). Run against serve's defaults, then against the limits of before
/// (`--max-connections-per-address 0 --header-timeout 30`; the long-poll caps stay).
struct HostilePart {
    let options: BackendOptions
    let work: String
    let serve: ServePart

    init(options: BackendOptions, work: String, cloudsync: String) {
        self.options = options
        self.work = work
        self.serve = ServePart(options: options, work: work, cloudsync: cloudsync)
    }

    var requests: Int { options.quick ? 50 : 200 }

    func run() throws -> JSONValue {
        let cloudURL = "sqlite://" + work + "/hostile.sqlite"
        let token = try serve.token("bench", cloud: cloudURL)
        let attacker = try serve.token("attacker", cloud: cloudURL)
        var phases: [(String, JSONValue)] = []
        for (name, extra) in [("defaults", [String]()), ("limits_of_before", ["--max-connections-per-address", "0", "--header-timeout", "30"])] {
            let server = try LineProcess(executable: serve.cloudsync,
                                         arguments: ["serve", "--listen", "127.0.0.1:0", "--cloud", cloudURL] + extra,
                                         environment: serve.environment(work + "/server-home"), stderrPath: work + "/hostile-\(name).log")
            defer { _ = server.stop() }
            guard let first = server.readLine(timeout: 30), first.hasPrefix("listening on ") else {
                throw BenchFailure("serve did not start; see \(work)/hostile-\(name).log")
            }
            let base = String(first.dropFirst("listening on ".count))
            let port = Int(base.split(separator: ":").last ?? "") ?? 0
            log("[hostile] serve \(extra.joined(separator: " ")) at \(base)")
            let quiet = measure(base, token)
            log("  quiet: \(quiet.summary)")
            let attack = Attack(port: port, token: attacker)
            attack.start()
            let attacked = measure(base, token)
            let held = attack.stop()
            log("  under attack (\(held.slow) slow connections and \(held.polls) long polls held, \(held.refusedPolls) polls refused): \(attacked.summary)")
            phases.append((name, .object([("quiet", quiet.json), ("attacked", attacked.json),
                                          ("slow_connections_held", .int(Int64(held.slow))),
                                          ("long_polls_held", .int(Int64(held.polls))),
                                          ("long_polls_refused", .int(Int64(held.refusedPolls))),
                                          ("server_peak_rss_mib", .double(round3(Double(server.statusKiB("VmHWM")) / 1024)))])))
        }
        return .object([("client", .string("zones/list through HTTPCloud from 127.0.0.1, \(requests) requests, 5 s timeout, no retries")),
                        ("attack", .string("300 connections dribbling headers from 127.0.0.2; 300 long polls of one account from 127.0.0.3-12"))]
                       + phases)
    }

    struct Figures {
        var latencies: [Double]
        var failures: Int
        var firstError: String?
        var summary: String {
            let stats = LatencyStats(latencies.isEmpty ? [0] : latencies)
            return "p50 \(fixed(stats.quantile(0.5))) ms, p99 \(fixed(stats.quantile(0.99))) ms, \(failures) of \(latencies.count + failures) failed"
                + (firstError.map { " (first: \($0))" } ?? "")
        }
        var json: JSONValue {
            let stats = LatencyStats(latencies.isEmpty ? [0] : latencies)
            return .object([("p50_ms", latencies.isEmpty ? .null : .double(round3(stats.quantile(0.5)))),
                            ("p99_ms", latencies.isEmpty ? .null : .double(round3(stats.quantile(0.99)))),
                            ("failed", .int(Int64(failures))), ("first_error", firstError.map { .string($0) } ?? .null)])
        }
    }

    /// `requests` sequential zones/list calls, each on a fresh connection (as a new client is).
    func measure(_ base: String, _ token: String) -> Figures {
        var figures = Figures(latencies: [], failures: 0, firstError: nil)
        for _ in 0..<requests {
            let cloud = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: base, defaultContainer: BenchCloud.container,
                                                                        token: { _ in token }, connectTimeout: 5, requestTimeout: 5),
                                  session: CurlSession())
            let start = Clock.now()
            do {
                _ = try cloud.account(named: "bench")
                figures.latencies.append((Clock.now() - start) * 1000)
            } catch {
                figures.failures += 1
                if figures.firstError == nil { figures.firstError = error.description }
            }
        }
        return figures
    }
}

/// The attackers: connections that dribble header bytes, and long polls held open, on their own
/// threads until `stop`.
final class Attack: @unchecked Sendable {
    let port: Int
    let token: String
    private let state = Mutex<(stopped: Bool, slow: [Int32], polls: [Int32], refused: Int)>((false, [], [], 0))
    private var thread = pthread_t()

    init(port: Int, token: String) {
        self.port = port
        self.token = token
    }

    static func connect(port: Int, from source: String) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Opens the 300 slow connections and the 300 long polls, then dribbles in the background.
    func start() {
        var slow: [Int32] = []
        for _ in 0..<300 {
            let fd = Self.connect(port: port, from: "127.0.0.2")
            if Self.send(fd, "POST /database/1/\(BenchCloud.container)/development/private/records/modify HTTP/1.1\r\nHost: x\r\n") {
                slow.append(fd)
            } else {
                close(fd)
            }
        }
        var polls: [Int32] = []
        for index in 0..<300 {
            let device = "attack-\(index % 38)"
            let apns = device.utf8.map { String($0, radix: 16) }.joined()
            let body = #"{"apnsToken":"\#(apns)","timeout":60}"#
            let fd = Self.connect(port: port, from: "127.0.0.\(3 + index % 10)")
            _ = Self.send(fd, "POST /database/1/\(BenchCloud.container)/development/private/notifications/poll HTTP/1.1\r\n"
                          + "Host: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                          + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
            polls.append(fd)
        }
        state.withLock { $0 = (false, slow, polls, 0) }
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { raw in
            let attack = Unmanaged<Attack>.fromOpaque(raw!).takeRetainedValue()
            attack.dribble()
            return nil
        }, box)
    }

    private func dribble() {
        while true {
            let (stopped, fds) = state.withLock { ($0.stopped, $0.slow) }
            if stopped { return }
            for fd in fds { _ = Self.send(fd, "X") }
            usleep(500_000)
        }
    }

    /// Ends the attack; how many slow connections were still open, polls held and refused.
    func stop() -> (slow: Int, polls: Int, refusedPolls: Int) {
        let (slow, polls, refused) = state.withLock { s in
            s.stopped = true
            return (s.slow, s.polls, s.refused)
        }
        pthread_join(thread, nil)
        // Still open with nothing received: held by the server (a refusal was answered or closed).
        func held(_ fds: [Int32]) -> Int {
            fds.filter { fd in
                var byte: UInt8 = 0
                return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            }.count
        }
        let slowHeld = held(slow)
        let pollsHeld = held(polls)
        (slow + polls).forEach { close($0) }
        _ = refused
        return (slowHeld, pollsHeld, polls.count - pollsHeld)
    }
}
