/// Answers requests. `handle` runs on the server's connection threads, up to
/// `HTTPServerConfiguration.maxConcurrentRequests` at once, so it must be thread-safe; it may block
/// (a store write, a long poll) for as long as it needs: only its own connection waits.
public protocol HTTPHandler: Sendable {
    /// The response to `request` (read in full, its body within the configured limit).
    func handle(_ request: HTTPRequest) -> HTTPResponse
}

/// A handler made of a closure (tests, small servers).
public struct HTTPClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        body(request)
    }
}
