import CloudSyncHTTPServer
import Synchronization

/// The running server's gauges for `GET /metrics`: the handler is made before the server it
/// answers for, so the server is handed over once started.
public final class ServerGauges: Sendable {
    private let server = Mutex<HTTPServer?>(nil)

    public init() {}

    /// The server to read from now on.
    public func attach(_ server: HTTPServer) {
        self.server.withLock { $0 = server }
    }

    /// Open connections and requests in flight now (zeros before `attach`).
    public func read() -> (connections: Int, inFlight: Int) {
        guard let server = server.withLock({ $0 }) else { return (0, 0) }
        return (server.connectionsOpen, server.requestsInFlight)
    }
}
