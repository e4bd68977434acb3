/// Answers requests. `handle` runs on the server's connection threads, up to
/// `HTTPServerConfiguration.maxConcurrentRequests` at once, so it must be thread-safe; it may block
/// (a store write, a long poll) for as long as it needs: only its own connection waits.
public protocol HTTPHandler: Sendable {
    /// Judges a request from its headers alone, as soon as they are in and before any byte of its
    /// body is read or buffered: nil lets it through (its body is read, then `handle` answers);
    /// a response refuses it: the server sends that response at once and closes the connection,
    /// the body unread. Must be cheap and thread-safe; the default lets every request through.
    func admit(_ head: HTTPRequestHead) -> HTTPResponse?

    /// The response to `request` (read in full, its body within the configured limit).
    func handle(_ request: HTTPRequest) -> HTTPResponse
}

extension HTTPHandler {
    /// Lets every request through to `handle`.
    public func admit(_ head: HTTPRequestHead) -> HTTPResponse? { nil }
}

/// A handler made of a closure (tests, small servers), with an optional pre-check of the head.
public struct HTTPClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse
    private let precheck: (@Sendable (HTTPRequestHead) -> HTTPResponse?)?

    /// `admit` (nil: every request is let through) judges heads; `body` answers requests.
    public init(admit: (@Sendable (HTTPRequestHead) -> HTTPResponse?)? = nil,
                _ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
        self.precheck = admit
    }

    public func admit(_ head: HTTPRequestHead) -> HTTPResponse? {
        precheck?(head)
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        body(request)
    }
}
