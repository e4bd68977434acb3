import CloudSyncWebProtocol

/// The `endpoint` label of a request in the metrics: a Web Services endpoint name
/// (`records/query`), `console`, `metrics`, `admin/…` or `sign-in`; anything else is `other`,
/// so that no client can grow the label set with made-up paths.
enum MetricsEndpointLabel {
    /// The label of a logged target (path, maybe with a query string).
    static func of(target: String) -> String {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if let route = ConsoleRoute(path: path) {
            switch route {
            case .asset, .redirect: return "console"
            case .metrics: return "metrics"
            case .operation(let name): return OperationsEndpoints.names.contains(name) || name == OperationsEndpoints.role ? "admin/" + name : "other"
            }
        }
        if path == "/sign-in" { return "sign-in" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 8, parts[1] == "database" else { return "other" }
        if parts[6] == "assets", parts[7] == "download" { return WebServicesEndpoint.assetsDownload.rawValue }
        let name = parts[6...].joined(separator: "/")
        return WebServicesEndpoint(rawValue: name)?.rawValue ?? "other"
    }
}
