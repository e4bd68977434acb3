import CloudSyncCore

/// A request the server answers itself, without its handler: what the transport refuses before
/// (or instead of) handing the request on. The handler words the answer in its protocol's shape
/// (`HTTPHandler.response(to:)`); the server adds `Connection: close` when it closes the connection
/// after it (`closesConnection`).
public enum HTTPRefusal: Sendable, Hashable {
    /// The request target holds a NUL or a `.`/`..` segment (`RequestPath`).
    case badTarget(RequestPathError)
    /// The body is larger than `limit` bytes (`maxBodySize`), as sent or once decompressed.
    case bodyTooLarge(limit: Int, decompressed: Bool)
    /// The body would take the bodies in flight past `maxBodyMemory`; retry after `retryAfter` s.
    case bodyMemoryFull(retryAfter: Int)
    /// A gzip body that cannot be decompressed.
    case unreadableGzipBody
    /// A body in a `Content-Encoding` other than gzip or identity (the coding as sent).
    case unsupportedContentEncoding(String)
    /// Every handler slot is taken and the queue is full (`maxConcurrentRequests`,
    /// `maxQueuedRequests`); retry after `retryAfter` s.
    case busy(retryAfter: Int)
    /// Long polls hold every connection but the reserved ones (`reservedConnections`); retry
    /// after `retryAfter` s.
    case tooManyLongPolls(retryAfter: Int)

    /// HTTP's own status for the refusal (a handler may answer another: see `response(to:)`).
    public var status: Int {
        switch self {
        case .badTarget, .unreadableGzipBody: 400
        case .bodyTooLarge: 413
        case .unsupportedContentEncoding: 415
        case .bodyMemoryFull, .busy, .tooManyLongPolls: 503
        }
    }

    /// A stable name for the refusal, for bodies and logs (`bodyTooLarge`, `busy`, …).
    public var name: String {
        switch self {
        case .badTarget: "badTarget"
        case .bodyTooLarge: "bodyTooLarge"
        case .bodyMemoryFull: "bodyMemoryFull"
        case .unreadableGzipBody: "unreadableGzipBody"
        case .unsupportedContentEncoding: "unsupportedContentEncoding"
        case .busy: "busy"
        case .tooManyLongPolls: "tooManyLongPolls"
        }
    }

    /// The one-line reason, for a person.
    public var reason: String {
        switch self {
        case .badTarget(let error): error.description
        case .bodyTooLarge(let limit, let decompressed):
            "the request body is larger than \(limit) bytes\(decompressed ? " once decompressed" : "")"
        case .bodyMemoryFull(let retry): "the server holds too many request bodies; retry after \(retry) s"
        case .unreadableGzipBody: "the gzip request body cannot be read"
        case .unsupportedContentEncoding(let coding):
            "request bodies in Content-Encoding '\(coding)' are not read; send gzip or none"
        case .busy(let retry): "the server is busy; retry after \(retry) s"
        case .tooManyLongPolls(let retry): "too many long polls are open; retry after \(retry) s"
        }
    }

    /// The seconds after which the client may try again, for the refusals that pass.
    public var retryAfter: Int? {
        switch self {
        case .bodyMemoryFull(let retry), .busy(let retry), .tooManyLongPolls(let retry): retry
        case .badTarget, .bodyTooLarge, .unreadableGzipBody, .unsupportedContentEncoding: nil
        }
    }

    /// True when the server closes the connection after the answer: the rest of a body is not
    /// read, and a refused long poller does not keep its connection.
    public var closesConnection: Bool {
        switch self {
        case .bodyTooLarge, .bodyMemoryFull, .tooManyLongPolls: true
        case .badTarget, .unreadableGzipBody, .unsupportedContentEncoding, .busy: false
        }
    }

    /// The answer of a handler that words no refusal itself: `status`, a `Retry-After` header
    /// when there is one, and `{"error": name, "reason": reason}` (plus `retryAfter`).
    public var response: HTTPResponse {
        var members: [(String, JSONValue)] = [("error", .string(name)), ("reason", .string(reason))]
        if let retryAfter { members.append(("retryAfter", .int(Int64(retryAfter)))) }
        var response = HTTPResponse.json(status: status, .object(members))
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }
}
