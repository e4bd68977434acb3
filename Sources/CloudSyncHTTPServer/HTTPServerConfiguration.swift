/// How an `HTTPServer` listens and what it allows. The defaults suit one `cloudsync serve` node.
public struct HTTPServerConfiguration: Sendable {
    /// A PEM certificate chain and private key (files) for HTTPS.
    public struct TLS: Sendable, Hashable {
        public var certificatePath: String
        public var privateKeyPath: String

        public init(certificatePath: String, privateKeyPath: String) {
            self.certificatePath = certificatePath
            self.privateKeyPath = privateKeyPath
        }
    }

    /// The address to listen on: a numeric address or a host name; "" or `*` for every address.
    public var host: String
    /// The TCP port; 0 lets the system choose (read `HTTPServer.boundPort`).
    public var port: UInt16
    /// Open connections at most; more are accepted and closed at once. Each open connection has a
    /// thread of its own (see `HTTPServer`), so this is also the server's thread bound.
    public var maxConnections: Int
    /// Open connections from one address at most; 0 for no limit beyond `maxConnections`.
    public var maxConnectionsPerAddress: Int
    /// How long a connection may wait for the client: idle between requests, receiving a request's
    /// headers, receiving its whole body (each counted from its start, not from the last byte: a
    /// client that dribbles bytes is closed when it runs out too). libmicrohttpd's own idle timeout
    /// is this rounded up to whole seconds.
    public var connectionTimeout: Duration
    /// How long a connection may take to send a request's headers, whole, counted from when the
    /// server starts waiting for them (the connection opened, or its previous request answered):
    /// a client that dribbles header bytes, or idles on a kept-alive connection, is closed then.
    public var headerTimeout: Duration = .seconds(10)
    /// The largest request body accepted, in bytes; a larger one is refused unread (`HTTPRefusal.bodyTooLarge`).
    public var maxBodySize: Int
    /// The bytes that request bodies may hold at once across all connections (counted from their
    /// `Content-Length`, or as a chunked body arrives, until the request completes); a request
    /// past it is refused (`HTTPRefusal.bodyMemoryFull`, with `Retry-After`) and its connection closed.
    /// At least `maxBodySize`.
    public var maxBodyMemory: Int = 256 << 20
    /// Handler calls running at once at most.
    public var maxConcurrentRequests: Int
    /// Requests waiting for a handler slot at most; more are answered 503 with `Retry-After`.
    public var maxQueuedRequests: Int
    /// The `Retry-After` (seconds) of a 503 for overload.
    public var retryAfterSeconds: Int
    /// Connections kept for gated requests: long polls (`HTTPHandler.isLongPoll`) run on at most
    /// `maxConnections - reservedConnections` connections at once; past it they are refused
    /// (`HTTPRefusal.tooManyLongPolls`, with `Retry-After`). 0 keeps none.
    public var reservedConnections: Int = 0
    /// The last connections of `maxConnections`, kept for addresses that hold few: once fewer
    /// than this many are free, a new connection is accepted only from an address holding fewer
    /// than `crowdedShareLimit` open connections (others are closed at once). Many addresses
    /// that each hold their share cannot fill the table then; a newcomer still gets in. 0 keeps none.
    public var connectionsKeptForNewAddresses: Int = 0
    /// Open connections an address may hold for a new one to be accepted while the table is
    /// crowded (see `connectionsKeptForNewAddresses`).
    public var crowdedShareLimit: Int = 2
    /// HTTPS when set; plain HTTP when nil.
    public var tls: TLS?

    public init(host: String = "127.0.0.1", port: UInt16 = 0, maxConnections: Int = 256,
                maxConnectionsPerAddress: Int = 0, connectionTimeout: Duration = .seconds(30),
                maxBodySize: Int = 16 << 20, maxConcurrentRequests: Int = 32, maxQueuedRequests: Int = 128,
                retryAfterSeconds: Int = 1, tls: TLS? = nil) {
        self.host = host
        self.port = port
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.connectionTimeout = connectionTimeout
        self.maxBodySize = maxBodySize
        self.maxConcurrentRequests = maxConcurrentRequests
        self.maxQueuedRequests = maxQueuedRequests
        self.retryAfterSeconds = retryAfterSeconds
        self.tls = tls
    }

    /// Why the configuration cannot be used, or nil.
    func problem() -> String? {
        if maxConnections < 1 || maxConnections > 1_000_000 { return "max connections must be 1 to 1000000" }
        if maxConnectionsPerAddress < 0 || maxConnectionsPerAddress > 1_000_000 {
            return "max connections per address must be 0 to 1000000"
        }
        if connectionTimeout < .milliseconds(100) || connectionTimeout > .seconds(86_400) {
            return "the connection timeout must be 0.1 s to 1 day"
        }
        if headerTimeout < .milliseconds(100) || headerTimeout > .seconds(86_400) {
            return "the header timeout must be 0.1 s to 1 day"
        }
        if maxBodySize < 0 { return "the maximum body size cannot be negative" }
        if maxBodyMemory < maxBodySize {
            return "the body memory bound (\(maxBodyMemory) bytes) must be at least the largest body (\(maxBodySize) bytes)"
        }
        if reservedConnections < 0 || reservedConnections >= maxConnections {
            return "the reserved connections must be 0 to max connections - 1"
        }
        if connectionsKeptForNewAddresses < 0 || connectionsKeptForNewAddresses >= maxConnections {
            return "the connections kept for new addresses must be 0 to max connections - 1"
        }
        if crowdedShareLimit < 1 { return "the crowded share limit must be at least 1" }
        if maxConcurrentRequests < 1 { return "max concurrent requests must be at least 1" }
        if maxQueuedRequests < 0 { return "max queued requests cannot be negative" }
        if retryAfterSeconds < 0 { return "Retry-After cannot be negative" }
        return nil
    }
}
