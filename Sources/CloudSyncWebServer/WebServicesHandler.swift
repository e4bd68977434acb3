import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// Makes the `CloudService` of a container for one request. The server keeps no state of its
/// own between requests: every node given the same factory answers alike.
public typealias CloudServiceFactory = @Sendable (_ container: String) throws(CloudError) -> any CloudService

/// The protocol half of `cloudsync serve`: a pure function from one authenticated HTTP request
/// to its response, over the `CloudService` the factory gives. Routes
/// `/database/1/{container}/{environment}/{database}/{endpoint}`; bodies are the CloudKit Web
/// Services dictionaries (see the codecs); errors are `{serverErrorCode, reason, uuid,
/// retryAfter}` with the documented HTTP status.
public final class WebServicesHandler: Sendable {
    /// The largest JSON body read (the JSON parser's own bound).
    public static let maxJSONBodyBytes = 64 << 20

    /// The largest body a request to `path` may carry: an asset's bytes for `assets/data`, a
    /// JSON document otherwise. A server can check `Content-Length` against it before reading
    /// the body; the handler answers 400 BAD_REQUEST (ckErrorCode limitExceeded) above it.
    public static func maxBodyBytes(forPath path: String) -> Int {
        path.hasSuffix("/" + WebServicesEndpoint.assetsData.rawValue) ? CloudLimits.maxAssetSize : maxJSONBodyBytes
    }

    let cloudFor: CloudServiceFactory
    let makeUUID: @Sendable () -> String
    /// `http` or `https`: the scheme of the URLs the replies name (the sign-in page of a 421).
    let scheme: String
    /// Signs the asset URLs handed out (`assets/upload`, each asset's `downloadURL`); without
    /// it URLs are absolute but unsigned, and need the caller's credential.
    let assetGrants: AssetGrants?
    /// With `serve --read-replica`: sends read-only calls to a replica that has replayed what the
    /// caller has seen, and gives every reply its position (`ReplicaRouter`).
    let replicas: ReplicaRouter?
    /// The longest a `notifications/poll` is held (`serve --max-poll-wait`): a poll asking more
    /// answers empty after this, below a load balancer's response timeout.
    let maxPollSeconds: Double

    public init(cloudFor: @escaping CloudServiceFactory, makeUUID: @escaping @Sendable () -> String = RequestUUID.make,
                scheme: String = "http", assetGrants: AssetGrants? = nil, replicas: ReplicaRouter? = nil,
                maxPollSeconds: Double = NotificationsCodec.maxPollSeconds) {
        self.cloudFor = cloudFor
        self.replicas = replicas
        self.maxPollSeconds = maxPollSeconds
        self.makeUUID = makeUUID
        self.scheme = scheme
        self.assetGrants = assetGrants
    }

    /// Answers one request. Never throws and never traps on any input.
    public func handle(_ request: WebServicesRequest) -> WebServicesResponse {
        let uuid = makeUUID()
        if request.path == AnonymousAccess.signInPath, request.method.uppercased() == "GET" { return signInPage() }
        let path: WebServicesPath
        do {
            path = try WebServicesPath.parse(request.path)
        } catch {
            return errorResponse(error.error, status: error.status, uuid: uuid)
        }
        guard path.endpoint.methods.contains(request.method.uppercased()) else {
            var response = errorResponse(CloudError(.invalidArguments, "\(path.endpoint.rawValue) does not answer \(request.method); use "
                                                    + path.endpoint.methods.joined(separator: " or ")),
                                         status: 405, uuid: uuid)
            response.headers.append(("Allow", path.endpoint.methods.joined(separator: ", ")))
            return response
        }
        let limit = Self.maxBodyBytes(forPath: request.path)
        guard request.body.count <= limit else {
            return errorResponse(CloudError(.limitExceeded, "the request body is larger than \(limit >> 20) MiB"), status: 400, uuid: uuid)
        }
        guard let caller = request.caller else {
            return errorResponse(CloudError(.notAuthenticated, "authentication failed: give Authorization: Bearer TOKEN or ckWebAuthToken"),
                                 status: 401, uuid: uuid, serverErrorCode: WebServicesError.authenticationFailed)
        }
        if let container = caller.apiTokenContainer {
            guard container == path.container else {
                return errorResponse(CloudError(.notAuthenticated, "authentication failed: the API token is for another container"),
                                     status: 401, uuid: uuid, serverErrorCode: WebServicesError.authenticationFailed)
            }
            guard AnonymousAccess.allows(path) else { return authenticationRequired(path, request: request, uuid: uuid) }
        }
        let accountName = caller.account
        if caller.apiTokenContainer == nil, let asked = request.header(WebServicesHeader.account), asked != accountName {
            return errorResponse(CloudError(.permissionFailure,
                                            "the credential is for another account than \(NameRules.quoted(asked))"),
                                 status: 403, uuid: uuid)
        }
        do {
            let service = try cloudFor(path.container)
            let account = caller.apiTokenContainer == nil ? try service.account(named: accountName)
                : Account(name: "", userRecordName: "")
            let device = request.header(WebServicesHeader.device).flatMap { $0.isEmpty ? nil : $0 } ?? WebServicesHeader.defaultDevice
            var database = DatabaseRequest(container: path.container, scope: path.scope,
                                           userRecordName: account.userRecordName, deviceID: device,
                                           environment: CloudEnvironment(rawValue: path.environment.rawValue) ?? .development)
            let ownerParameter = path.endpoint == .assetsDownload ? request.parameter(AssetGrants.ownerParameter) : nil
            if let owner = request.header(WebServicesHeader.sharedOwner) ?? ownerParameter { database = database.owned(by: owner) }
            let call = WebServicesCall(service: service, path: path, request: request, database: database,
                                       account: account, caller: caller, uuid: uuid, grants: assetGrants, maxPollSeconds: maxPollSeconds)
            guard let replicas else { return try call.answer() }
            let carried = request.header(WebServicesHeader.position).flatMap(ReadPosition.init(text:))
            return try replicas.answer(path.endpoint, carried: carried, body: request.body, primary: service) { routed throws(CloudError) in
                var routedCall = call
                routedCall.service = routed
                return try routedCall.answer()
            }
        } catch {
            return errorResponse(error, status: WebServicesError.status(for: error), uuid: uuid)
        }
    }

    /// The error reply; `extra` members (a 421's `redirectURL`) follow the documented ones.
    func errorResponse(_ error: CloudError, status: Int, uuid: String, serverErrorCode: String? = nil,
                       extra: [(String, JSONValue)] = []) -> WebServicesResponse {
        var headers = [("Content-Type", "application/json")]
        if let retry = error.retryAfter, retry.isFinite, retry >= 0 {
            headers.append(("Retry-After", String(Int(retry.rounded(.up)))))
        }
        var json = WebServicesError.body(error, uuid: uuid, serverErrorCode: serverErrorCode)
        if case .object(let pairs) = json, !extra.isEmpty { json = .object(pairs + extra) }
        let body = json.serialized()
        return WebServicesResponse(status: status, headers: headers, body: Array(body.utf8))
    }
}
