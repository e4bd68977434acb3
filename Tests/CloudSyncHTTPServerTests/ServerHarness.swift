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
         longPoll: (@Sendable (HTTPRequest) -> Bool)? = nil,
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        let box = LogBox()
        server = HTTPServer(configuration: configuration, handler: HTTPClosureHandler(admit: admit, longPoll: longPoll, handler),
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
