/// Answers requests. `handle` runs on the server's connection threads, up to
/// `HTTPServerConfiguration.maxConcurrentRequests` at once, so it must be thread-safe; it may block
/// (a store write, a long poll) for as long as it needs: only its own connection waits.
public protocol HTTPHandler: Sendable {
    /// Judges a request from its headers alone, as soon as they are in and before any byte of its
    /// body is read or buffered: nil lets it through (its body is read, then `handle` answers);
    /// a response refuses it: the server sends that response at once and closes the connection,
    /// the body unread. Must be cheap and thread-safe; the default lets every request through.
    func admit(_ head: HTTPRequestHead) -> HTTPResponse?

    /// `admit`, and what judging the head learned that `handle` may use instead of finding it
    /// again (`HTTPRequest.admissionNote`). The server calls this one; the default wraps `admit`
    /// and notes nothing.
    func admission(_ head: HTTPRequestHead) -> HTTPAdmission

    /// The response to `request` (read in full, its body within the configured limit).
    func handle(_ request: HTTPRequest) -> HTTPResponse

    /// The answer to a request the server refuses itself (a limit, a bad target, overload), in
    /// the handler's protocol's error shape; the server adds `Connection: close` when it closes
    /// the connection after it. The default is `refusal.response`.
    func response(to refusal: HTTPRefusal) -> HTTPResponse

    /// True for a request that waits rather than works (a long poll): it skips the handler gate
    /// (`maxConcurrentRequests`, `maxQueuedRequests`), and runs on at most
    /// `maxConnections - reservedConnections` connections. Called once the body is in; must be
    /// cheap and thread-safe. The default is false.
    func isLongPoll(_ request: HTTPRequest) -> Bool
}

extension HTTPHandler {
    /// Lets every request through to `handle`.
    public func admit(_ head: HTTPRequestHead) -> HTTPResponse? { nil }

    /// `admit`'s verdict, without a note.
    public func admission(_ head: HTTPRequestHead) -> HTTPAdmission {
        admit(head).map(HTTPAdmission.refused) ?? .admitted(note: nil)
    }

    /// `refusal.response`: its status, `{"error", "reason"}` and `Retry-After`.
    public func response(to refusal: HTTPRefusal) -> HTTPResponse { refusal.response }

    /// No request is a long poll.
    public func isLongPoll(_ request: HTTPRequest) -> Bool { false }
}

/// A handler made of a closure (tests, small servers), with an optional pre-check of the head
/// and an optional choice of the long polls.
public struct HTTPClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse
    private let precheck: (@Sendable (HTTPRequestHead) -> HTTPResponse?)?
    private let longPoll: (@Sendable (HTTPRequest) -> Bool)?

    /// `admit` (nil: every request is let through) judges heads; `longPoll` (nil: none) names
    /// the long polls; `body` answers requests.
    public init(admit: (@Sendable (HTTPRequestHead) -> HTTPResponse?)? = nil,
                longPoll: (@Sendable (HTTPRequest) -> Bool)? = nil,
                _ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
        self.precheck = admit
        self.longPoll = longPoll
    }

    public func isLongPoll(_ request: HTTPRequest) -> Bool {
        longPoll?(request) ?? false
    }

    public func admit(_ head: HTTPRequestHead) -> HTTPResponse? {
        precheck?(head)
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        body(request)
    }
}
