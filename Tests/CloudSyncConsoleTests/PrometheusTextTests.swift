import CloudSyncService
import CloudSyncConsole
import CloudSyncHTTPServer
import Testing

/// The metrics as Prometheus reads them: counters, a cumulative histogram, escaped labels, and
/// an endpoint label set that no request can grow.
@Suite("GET /metrics text")
struct PrometheusTextTests {
    func entry(_ target: String, _ status: Int, _ milliseconds: Double) -> HTTPRequestLogEntry {
        HTTPRequestLogEntry(method: "POST", target: target, status: status, milliseconds: milliseconds, account: "a", remoteAddress: "1")
    }

    @Test func countsErrorsAndACumulativeHistogram() {
        let metrics = ServerMetrics(started: 0)
        let query = "/database/1/iCloud.a.b/development/private/records/query"
        metrics.record(entry(query, 200, 0.5))
        metrics.record(entry(query, 200, 30))
        metrics.record(entry(query + "?ckWebAuthToken=-", 409, 2000))
        metrics.record(entry("/database/1/iCloud.a.b/development/private/assets/download/photo.jpg", 200, 1))
        metrics.record(entry("/database/1/iCloud.a.b/development/private/made/up/path", 404, 1))
        metrics.record(entry("/etc/passwd", 404, 1))
        metrics.record(entry("/admin/1/credentials/list", 403, 1))
        metrics.record(entry("/admin/1/whatever", 403, 1))
        let text = PrometheusText.render(endpoints: metrics.snapshot(),
                                         gauges: .init(connectionsOpen: 3, requestsInFlight: 1, uptimeSeconds: 12.5),
                                         containers: [ContainerFigures(container: "iCloud.\"x\"\\y", records: 7, fieldBytes: 70, assetBytes: 700)])
        #expect(text.contains("cloudsync_http_requests_total{endpoint=\"records/query\",code=\"2xx\"} 2\n"), "\(text)")
        #expect(text.contains("cloudsync_http_requests_total{endpoint=\"records/query\",code=\"4xx\"} 1\n"))
        #expect(text.contains("cloudsync_http_errors_total{endpoint=\"records/query\"} 1\n"))
        #expect(text.contains("cloudsync_http_request_duration_seconds_bucket{endpoint=\"records/query\",le=\"0.001\"} 1\n"))
        #expect(text.contains("cloudsync_http_request_duration_seconds_bucket{endpoint=\"records/query\",le=\"0.05\"} 2\n"))
        #expect(text.contains("cloudsync_http_request_duration_seconds_bucket{endpoint=\"records/query\",le=\"2.5\"} 3\n"))
        #expect(text.contains("cloudsync_http_request_duration_seconds_bucket{endpoint=\"records/query\",le=\"+Inf\"} 3\n"))
        #expect(text.contains("cloudsync_http_request_duration_seconds_count{endpoint=\"records/query\"} 3\n"))
        #expect(text.contains("endpoint=\"assets/download\""))
        #expect(text.contains("cloudsync_http_requests_total{endpoint=\"other\",code=\"4xx\"} 3\n"), "made-up paths are one label: \(text)")
        #expect(text.contains("endpoint=\"admin/credentials/list\""))
        #expect(!text.contains("whatever") && !text.contains("passwd") && !text.contains("made/up"))
        #expect(text.contains("cloudsync_http_connections_open 3\n") && text.contains("cloudsync_http_requests_in_flight 1\n"))
        #expect(text.contains("cloudsync_container_records{container=\"iCloud.\\\"x\\\"\\\\y\"} 7\n"), "\(text)")
        #expect(text.contains("cloudsync_container_bytes{container=\"iCloud.\\\"x\\\"\\\\y\",kind=\"assets\"} 700\n"))
        // Every sample line is NAME{labels} VALUE or NAME VALUE; every family has HELP and TYPE.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").count == 2 || line.contains("{"), "\(line)")
            let name = String(line.prefix { $0 != "{" && $0 != " " })
            let family = name.replacing("_bucket", with: "").replacing("_sum", with: "").replacing("_count", with: "")
            #expect(text.contains("# TYPE \(family) "), "\(name)")
        }
    }
}
