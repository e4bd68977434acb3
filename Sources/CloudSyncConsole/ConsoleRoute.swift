/// What a request path asks of the console layer of `cloudsync serve`: an asset of the
/// single-page app, the metrics, an administrator's operations call, or nothing (the path goes
/// on to the Web Services handler).
public enum ConsoleRoute: Sendable, Hashable {
    /// The path prefix the single-page app is served under.
    public static let prefix = "/console/"
    /// The Prometheus text of the server's figures (administrators only).
    public static let metricsPath = "/metrics"
    /// The prefix of the administrator's calls (`/admin/1/credentials/list`, …).
    public static let operationsPrefix = "/admin/1/"

    /// `/console`: answered with a redirect to `/console/`.
    case redirect
    /// One of the app's files (`index.html` for `/console/`).
    case asset(String)
    /// `GET /metrics`.
    case metrics
    /// `/admin/1/NAME`, with NAME (`credentials/list`, …).
    case operation(String)

    /// The route of `path`, or nil for a path the console layer does not answer.
    public init?(path: String) {
        if path == "/console" {
            self = .redirect
        } else if path.hasPrefix(Self.prefix) {
            let name = String(path.dropFirst(Self.prefix.count))
            self = .asset(name.isEmpty ? "index.html" : name)
        } else if path == Self.metricsPath {
            self = .metrics
        } else if path.hasPrefix(Self.operationsPrefix) {
            self = .operation(String(path.dropFirst(Self.operationsPrefix.count)))
        } else {
            return nil
        }
    }

    /// Whether the route needs a credential (the metrics and operations; all but `admin/1/role`
    /// need the administrator role too).
    public var needsCredential: Bool {
        switch self {
        case .metrics, .operation: true
        case .redirect, .asset: false
        }
    }
}
