/// One request on its connection, from its headers' arrival to libmicrohttpd's completion callback
/// (the `con_cls` of the request). Only its connection's thread touches it.
final class RequestContext {
    let method: String
    let path: String
    let startedAt: UInt64
    var body: [UInt8] = []
    /// A response is queued (e.g. 400 before the body): later calls ignore what arrives.
    var answered = false
    /// Body bytes read and dropped after the body was refused mid-way (TLS only; see `access`).
    var discarded = 0
    /// What a body refused mid-way is answered at its end (TLS only): 400 or 503.
    var refusal: HTTPResponse?
    /// Body bytes counted against `maxBodyMemory` for this request, given back when it completes.
    /// Guarded by the server's lock.
    var reserved = 0
    /// The client's `Accept-Encoding` takes gzip: replies of `Gzip.minimumSize` bytes or more go compressed.
    var acceptsGzip = false
    /// What the handler's `admission` noted from the head, handed to `handle` with the request.
    var admissionNote: (any Sendable)?

    init(method: String, path: String, startedAt: UInt64) {
        self.method = method
        self.path = path
        self.startedAt = startedAt
    }
}

/// One open connection (libmicrohttpd's `socket_context`): its socket, for the watchdog to shut
/// down, and the time by which the client must have sent what the server waits for.
final class ConnectionContext {
    let fd: Int32
    /// The client's numeric address (`ListeningSocket.numericHost`), counted by the accept policy.
    let peer: String
    /// Monotonic nanoseconds; 0 while nothing is awaited from the client (a handler runs, a
    /// response is being sent). Guarded by the server's lock.
    var deadline: UInt64
    /// The watchdog shut the socket down already. Guarded by the server's lock.
    var shutDown = false
    /// Why the current request's raw target was refused (`HTTPServer.requestTargetCallback`);
    /// only the connection's thread touches it.
    var targetRefusal: RequestPathError?

    init(fd: Int32, peer: String, deadline: UInt64) {
        self.fd = fd
        self.peer = peer
        self.deadline = deadline
    }
}

/// Collects the (name, value) pairs of `MHD_get_connection_values` (headers, query arguments).
final class PairCollector {
    var pairs: [(String, String)] = []
}
