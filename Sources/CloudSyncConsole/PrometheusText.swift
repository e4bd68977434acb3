import CloudSyncService
import CloudSyncWebServer

/// The server's figures in Prometheus' text exposition format (version 0.0.4), what
/// `GET /metrics` answers: request counts by endpoint and status class, errors, a latency
/// histogram per endpoint, open connections and requests in flight, and per container its
/// records and bytes.
public enum PrometheusText {
    /// The content type of the reply.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// What the server shows of itself now.
    public struct Gauges: Sendable {
        public var connectionsOpen: Int
        public var requestsInFlight: Int
        public var uptimeSeconds: Double

        public init(connectionsOpen: Int, requestsInFlight: Int, uptimeSeconds: Double) {
            self.connectionsOpen = connectionsOpen
            self.requestsInFlight = requestsInFlight
            self.uptimeSeconds = uptimeSeconds
        }
    }

    /// The read-only calls of a server with read replicas, by who answered them.
    public struct ReplicaReads: Sendable {
        public var replica: Int
        public var primary: Int
        /// Calls with a position no replica had replayed yet (answered by the primary).
        public var behind: Int
        /// Calls a replica failed (answered again by the primary).
        public var failed: Int

        public init(_ figures: ReplicaRouter.Figures) {
            replica = figures.replicaReads
            primary = figures.primaryReads
            behind = figures.behind
            failed = figures.failures
        }
    }

    /// The exposition text.
    public static func render(endpoints: [String: ServerMetrics.Endpoint], gauges: Gauges,
                              containers: [ContainerFigures]?, replicaReads: ReplicaReads? = nil) -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        let names = endpoints.keys.sorted()
        family("cloudsync_http_requests_total", "counter", "Requests answered, by endpoint and status class.")
        for name in names {
            for (statusClass, count) in endpoints[name]!.byClass.sorted(by: { $0.key < $1.key }) {
                out += "cloudsync_http_requests_total{endpoint=\"\(label(name))\",code=\"\(statusClass)\"} \(count)\n"
            }
        }
        family("cloudsync_http_errors_total", "counter", "Requests answered with a status of 400 or more, by endpoint.")
        for name in names { out += "cloudsync_http_errors_total{endpoint=\"\(label(name))\"} \(endpoints[name]!.errors)\n" }
        family("cloudsync_http_request_duration_seconds", "histogram",
               "Time from the request's headers to its response being queued, by endpoint.")
        for name in names {
            let figures = endpoints[name]!
            for (index, bound) in ServerMetrics.bucketBounds.enumerated() {
                out += "cloudsync_http_request_duration_seconds_bucket{endpoint=\"\(label(name))\",le=\"\(number(bound))\"} \(figures.buckets[index])\n"
            }
            out += "cloudsync_http_request_duration_seconds_bucket{endpoint=\"\(label(name))\",le=\"+Inf\"} \(figures.count)\n"
            out += "cloudsync_http_request_duration_seconds_sum{endpoint=\"\(label(name))\"} \(number(figures.secondsSum))\n"
            out += "cloudsync_http_request_duration_seconds_count{endpoint=\"\(label(name))\"} \(figures.count)\n"
        }
        family("cloudsync_http_connections_open", "gauge", "Client connections open now.")
        out += "cloudsync_http_connections_open \(gauges.connectionsOpen)\n"
        family("cloudsync_http_requests_in_flight", "gauge", "Requests being read, handled or answered now (long polls included).")
        out += "cloudsync_http_requests_in_flight \(gauges.requestsInFlight)\n"
        family("cloudsync_uptime_seconds", "gauge", "Seconds since this serve process started.")
        out += "cloudsync_uptime_seconds \(number(gauges.uptimeSeconds))\n"
        if let reads = replicaReads {
            family("cloudsync_replica_reads_total", "counter",
                   "Read-only calls of a server with --read-replica, by who answered them (replica or primary).")
            out += "cloudsync_replica_reads_total{served_by=\"replica\"} \(reads.replica)\n"
            out += "cloudsync_replica_reads_total{served_by=\"primary\"} \(reads.primary)\n"
            family("cloudsync_replica_fallbacks_total", "counter",
                   "Read-only calls the primary answered although they carried a position: no replica had replayed it (behind) or the replica failed.")
            out += "cloudsync_replica_fallbacks_total{reason=\"behind\"} \(reads.behind)\n"
            out += "cloudsync_replica_fallbacks_total{reason=\"failed\"} \(reads.failed)\n"
        }
        if let containers {
            family("cloudsync_container_records", "gauge", "Live records of a container, over every account and database.")
            for c in containers { out += "cloudsync_container_records{container=\"\(label(c.container))\"} \(c.records)\n" }
            family("cloudsync_container_bytes", "gauge", "Bytes a container holds, by kind: record fields or assets.")
            for c in containers {
                out += "cloudsync_container_bytes{container=\"\(label(c.container))\",kind=\"fields\"} \(c.fieldBytes)\n"
                out += "cloudsync_container_bytes{container=\"\(label(c.container))\",kind=\"assets\"} \(c.assetBytes)\n"
            }
        }
        return out
    }

    /// A label value escaped as the format says (backslash, double quote, line feed).
    static func label(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// A number as Prometheus reads it (no exponent for the bounds used here).
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
