@testable import CloudSyncHTTPServer
import Glibc
import TestSupport

/// A started server on 127.0.0.1 (port chosen by the system) with its log lines collected.
final class ServerHarness: @unchecked Sendable {
    let server: HTTPServer
    let port: UInt16
    private let logLock = ConditionLock()
    private var entries: [HTTPRequestLogEntry] = []

    init(_ configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
         admit: (@Sendable (HTTPRequestHead) -> HTTPResponse?)? = nil,
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        let box = LogBox()
        server = HTTPServer(configuration: configuration, handler: HTTPClosureHandler(admit: admit, handler),
                            log: { entry in box.harness?.record(entry) })
        try server.start()
        port = server.boundPort ?? 0
        box.harness = self
    }

    deinit { server.stop(grace: .seconds(1)) }

    var log: [HTTPRequestLogEntry] { logLock.withLock { entries } }

    private func record(_ entry: HTTPRequestLogEntry) {
        logLock.withLock { entries.append(entry) }
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Runs the curl command-line tool (`-s`, no progress) with `arguments`.
    static func curl(_ arguments: [String]) -> ProcessResult {
        ProcessSpawner.run("/usr/bin/curl", ["-sS", "--max-time", "30"] + arguments, environment: ["PATH": "/usr/bin:/bin"])
    }

    private final class LogBox: @unchecked Sendable {
        weak var harness: ServerHarness?
    }
}

/// A blocking TCP client on 127.0.0.1 for what curl will not send (partial or broken requests).
struct RawClient {
    let fd: Int32

    /// Connects to 127.0.0.1:`port` from `source` (another loopback address such as 127.0.0.2
    /// when given: the server sees another peer).
    init(port: UInt16, receiveTimeoutSeconds: Int = 20, from source: String? = nil) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            _ = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `text`; false when the connection is closed or reset.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Everything the server sends until it closes the connection (or the receive timeout).
    func readAll() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One response read up to the end of its body (by Content-Length).
    func readResponse() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let text = String(decoding: out, as: UTF8.self)
            if let end = text.firstRange(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: " ")) } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length { return text }
            }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return text }
            out += buffer[0..<n]
        }
    }

    func close() { _ = Glibc.close(fd) }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

/// Runs `count` bodies on their own threads at once and waits for all of them.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Job: @unchecked Sendable {
        let index: Int
        let body: @Sendable (Int) -> Void
        init(_ index: Int, _ body: @escaping @Sendable (Int) -> Void) { self.index = index; self.body = body }
    }
    var threads: [pthread_t] = []
    for index in 0..<count {
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(index, body)).toOpaque()
        pthread_create(&thread, nil, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            job.body(job.index)
            return nil
        }, job)
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// Waits (polling every 10 ms, at most `seconds`) until `condition` holds; returns whether it did.
func eventually(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
    while MonotonicClock.now() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// A latch a handler waits on until the test opens it (or 30 s pass).
final class Gate: @unchecked Sendable {
    private let lock = ConditionLock()
    private var open = false
    private var waiting = 0

    func wait() {
        lock.withLock {
            waiting += 1
            let deadline = MonotonicClock.now() + 30_000_000_000
            while !open && MonotonicClock.now() < deadline { lock.wait(until: deadline) }
            waiting -= 1
        }
    }

    var waiters: Int { lock.withLock { waiting } }

    func release() {
        lock.withLock {
            open = true
            lock.broadcast()
        }
    }
}

/// A thread-safe counter and list for results gathered from client threads.
final class Collected<T>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
    var all: [T] { lock.withLock { items } }
}
