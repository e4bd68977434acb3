import CloudSyncService
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebProtocol
import CloudSyncWebServer
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync serve`'s outer handler: answers the console's paths (`ConsoleRoute`) and hands
/// every other request to `base` (the Web Services handler) untouched. The app's files need no
/// credential (they hold no data: the app is a client of the Web Services API like any other);
/// `GET /metrics` and `/admin/1/…` need a credential with the administrator role: none or a bad
/// one is 401 from the head, another account's 403 ACCESS_DENIED.
public struct ConsoleHTTPHandler: HTTPHandler {
    let base: any HTTPHandler
    let authenticator: any WebServicesAuthenticator
    let operations: OperationsEndpoints
    let metrics: ServerMetrics
    /// What the server shows of itself now (open connections, requests in flight).
    let gauges: @Sendable () -> (connections: Int, inFlight: Int)
    /// With read replicas: what they served so far.
    let replicaReads: (@Sendable () -> PrometheusText.ReplicaReads)?

    /// `operations` work on the server's store; `metrics` is fed by the request log; `gauges`
    /// reads the running server; `replicaReads` the read replicas' figures (`serve --read-replica`).
    public init(base: any HTTPHandler, authenticator: any WebServicesAuthenticator, operations: OperationsEndpoints,
                metrics: ServerMetrics, gauges: @escaping @Sendable () -> (connections: Int, inFlight: Int),
                replicaReads: (@Sendable () -> PrometheusText.ReplicaReads)? = nil) {
        self.replicaReads = replicaReads
        self.base = base
        self.authenticator = authenticator
        self.operations = operations
        self.metrics = metrics
        self.gauges = gauges
    }

    /// `base`'s admission (with its note) for every path that is not the console's.
    public func admission(_ head: HTTPRequestHead) -> HTTPAdmission {
        guard ConsoleRoute(path: head.path) != nil else { return base.admission(head) }
        return admit(head).map(HTTPAdmission.refused) ?? .admitted(note: nil)
    }

    public func admit(_ head: HTTPRequestHead) -> HTTPResponse? {
        guard let route = ConsoleRoute(path: head.path) else { return base.admit(head) }
        guard route.needsCredential else { return nil }
        return authenticator.precheck(path: head.path, query: head.query.map { ($0.name, $0.value) },
                                      headers: head.headers.map { ($0.name, $0.value) }).map(Self.refusal)
    }

    /// The server's own refusals, worded as `base` words them (CloudKit error bodies).
    public func response(to refusal: HTTPRefusal) -> HTTPResponse {
        base.response(to: refusal)
    }

    /// `base`'s long polls; no console path is one.
    public func isLongPoll(_ request: HTTPRequest) -> Bool {
        ConsoleRoute(path: request.path) == nil && base.isLongPoll(request)
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard let route = ConsoleRoute(path: request.path) else { return base.handle(request) }
        switch route {
        case .redirect:
            return ConsoleAsset.redirect()
        case .asset(let name):
            return ConsoleAsset.response(named: name, method: request.method.uppercased())
        case .metrics, .operation:
            break
        }
        let caller: Caller?
        do {
            caller = try authenticator.caller(method: request.method, path: request.path, query: request.query.map { ($0.name, $0.value) },
                                              headers: request.headers.map { ($0.name, $0.value) }, body: request.body)
        } catch {
            return Self.error(503, "TRY_AGAIN_LATER", error.reason)
        }
        guard let caller else { return Self.refusal(.badSignature) }
        let account = caller.account.isEmpty ? "(api token)" : caller.account
        if route == .operation(OperationsEndpoints.role) {
            // Any credential may ask what it is (the console shows Operations to administrators only).
            let role = caller.apiTokenContainer != nil ? "none" : caller.hasAdminRole ? "admin" : "user"
            var response = HTTPResponse.json(.object([("account", .string(caller.account)), ("role", .string(role))]))
            response.headers.set("Cache-Control", "no-store")
            response.logAccount = account
            return response
        }
        guard caller.hasAdminRole else {
            var refused = Self.error(403, "ACCESS_DENIED", "\(request.path) needs a credential with the administrator role (token create --admin)")
            refused.logAccount = account
            return refused
        }
        var response: HTTPResponse
        switch route {
        case .metrics:
            guard request.method.uppercased() == "GET" else {
                response = Self.error(405, "BAD_REQUEST", "/metrics answers GET only")
                break
            }
            response = metricsResponse()
        case .operation(let name):
            guard OperationsEndpoints.names.contains(name) else {
                response = Self.error(404, "NOT_FOUND", "no such operation")
                break
            }
            guard request.method.uppercased() == "POST" else {
                response = Self.error(405, "BAD_REQUEST", "\(request.path) answers POST only")
                break
            }
            do {
                response = .json(try operations.answer(name, body: request.body))
            } catch {
                response = Self.error(WebServicesError.status(for: error), error.code.serverErrorCode, error.reason)
            }
        default:
            response = Self.error(404, "NOT_FOUND", "no such path")
        }
        response.headers.set("Cache-Control", "no-store")
        response.logAccount = account
        return response
    }

    func metricsResponse() -> HTTPResponse {
        let now = gauges()
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let seconds = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        let containers = try? operations.service.storage.storageCapabilities.figures?.containerFigures()
        let text = PrometheusText.render(endpoints: metrics.snapshot(),
                                         gauges: .init(connectionsOpen: now.connections, requestsInFlight: now.inFlight,
                                                       uptimeSeconds: max(0, seconds - metrics.started)),
                                         containers: containers, replicaReads: replicaReads?())
        return HTTPResponse(status: 200, headers: ["Content-Type": PrometheusText.contentType], body: Array(text.utf8))
    }

    /// A Web Services error body with `status`.
    static func error(_ status: Int, _ code: String, _ reason: String) -> HTTPResponse {
        .error(status: status, code: code, reason: reason)
    }

    /// The 401 of a refused credential (the connection closed, as the Web Services refusals).
    static func refusal(_ refusal: CredentialRefusal) -> HTTPResponse {
        var response = error(401, "AUTHENTICATION_FAILED", refusal.description)
        response.headers.set("Connection", "close")
        return response
    }
}
