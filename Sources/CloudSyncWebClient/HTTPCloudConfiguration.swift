import CloudSyncWebProtocol
/// Where and how an `HTTPCloud` reaches `cloudsync serve`.
public struct HTTPCloudConfiguration: Sendable {
    /// `http://host:port` or `https://host:port` (a path prefix is allowed; no trailing slash needed).
    public var baseURL: String
    /// The environment named in every path.
    public var environment: WebServicesEnvironment
    /// The container of the calls that name none (`account(named:)`).
    public var defaultContainer: String
    /// The bearer token of an account (by login name), or nil to send none.
    public var token: @Sendable (_ account: String) -> String?
    /// Seconds to wait for a connection.
    public var connectTimeout: Double
    /// Seconds one request may take in all (a long poll adds its own wait to this).
    public var requestTimeout: Double
    /// The largest reply read; a larger one fails the call.
    public var maxReplyBytes: Int
    /// PEM certificates to trust for `https://` instead of the system's (a self-signed server).
    public var caFile: String?
    /// The account the schema calls (which name no account) go as when none has signed in
    /// through this client; nil to require a sign-in first.
    public var schemaAccount: String?
    /// How a request that no `serve` answered (refused, a balancer's 502/503/504) is tried again.
    public var transportRetry = TransportRetryPolicy()

    public init(baseURL: String, environment: WebServicesEnvironment = .development,
                defaultContainer: String = "iCloud.com.example.App", token: @escaping @Sendable (String) -> String? = { _ in nil },
                connectTimeout: Double = 10, requestTimeout: Double = 120, maxReplyBytes: Int = 256 << 20,
                caFile: String? = nil, schemaAccount: String? = nil) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.environment = environment
        self.defaultContainer = defaultContainer
        self.token = token
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.maxReplyBytes = maxReplyBytes
        self.caFile = caFile
        self.schemaAccount = schemaAccount
    }
}
