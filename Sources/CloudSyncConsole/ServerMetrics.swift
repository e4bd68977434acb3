import CloudSyncHTTPServer
import Synchronization

/// The request figures of one `serve` process since it started: per endpoint, the requests by
/// status class, the errors (status 400 and up) and a latency histogram; fed by the request log
/// (`record`), read as Prometheus text by `GET /metrics`.
public final class ServerMetrics: Sendable {
    /// The upper bounds (seconds) of the latency histogram's buckets.
    public static let bucketBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    /// One endpoint's figures.
    public struct Endpoint: Sendable, Hashable {
        /// Requests by status class (`2xx`, `3xx`, `4xx`, `5xx`).
        public var byClass: [String: Int] = [:]
        public var errors = 0
        /// Requests at or under each bound of `bucketBounds`, cumulative; the last count is all.
        public var buckets = [Int](repeating: 0, count: ServerMetrics.bucketBounds.count)
        public var count = 0
        public var secondsSum = 0.0
    }

    private let endpoints = Mutex<[String: Endpoint]>([:])
    /// When the process started (seconds since 1970).
    public let started: Double

    public init(started: Double) {
        self.started = started
    }

    /// Counts one answered request.
    public func record(_ entry: HTTPRequestLogEntry) {
        let label = MetricsEndpointLabel.of(target: entry.target)
        let seconds = max(0, entry.milliseconds / 1000)
        let statusClass = "\(min(max(entry.status / 100, 1), 5))xx"
        endpoints.withLock { all in
            var figures = all[label] ?? Endpoint()
            figures.byClass[statusClass, default: 0] += 1
            if entry.status >= 400 { figures.errors += 1 }
            for (index, bound) in Self.bucketBounds.enumerated() where seconds <= bound { figures.buckets[index] += 1 }
            figures.count += 1
            figures.secondsSum += seconds
            all[label] = figures
        }
    }

    /// Every endpoint's figures so far.
    public func snapshot() -> [String: Endpoint] {
        endpoints.withLock { $0 }
    }
}
