import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// The transport under every call of `HTTPCloud`: one request (`sendOnce`), the tries again when
/// no `serve` answered (`exchange`, per `configuration.transportRetry`), the read position sent and
/// kept, and the reply turned into JSON or a `CloudError`.
extension HTTPCloud {
    /// Sends one request to an endpoint and returns the reply's JSON (or raw bytes for assets).
    /// The path names `environment`, the configuration's when nil (calls without a request).
    func send(_ endpoint: WebServicesEndpoint, container: String, environment: CloudEnvironment? = nil, scope: DatabaseScope,
              account: String, device: String?,
              body: [UInt8], method: String = "POST", query: String = "", contentType: String = "application/json",
              extraTimeout: Double = 0, on connection: CurlSession? = nil, sharedOwner: String? = nil) throws(CloudError) -> HTTPReply {
        var repeated = false
        return try exchange(endpoint, container: container, environment: environment, scope: scope, account: account, device: device,
                            body: body, method: method, query: query, contentType: contentType, extraTimeout: extraTimeout,
                            on: connection, sharedOwner: sharedOwner, repeated: &repeated)
    }

    /// `send`, tried again per `configuration.transportRetry` when no `serve` answered; sets
    /// `repeated` when a try that a node may have applied was sent again (also when the call then
    /// fails), so that a save can recognise its own first try in a conflict.
    func exchange(_ endpoint: WebServicesEndpoint, container: String, environment: CloudEnvironment? = nil, scope: DatabaseScope,
                  account: String, device: String?,
                  body: [UInt8], method: String = "POST", query: String = "", contentType: String = "application/json",
                  extraTimeout: Double = 0, on connection: CurlSession? = nil,
                  sharedOwner: String? = nil, repeated: inout Bool) throws(CloudError) -> HTTPReply {
        let policy = configuration.transportRetry
        var attempt = 0
        var refusedTries = 0
        while true {
            switch try sendOnce(endpoint, container: container, environment: environment, scope: scope, account: account,
                                device: device, body: body, method: method, query: query, contentType: contentType,
                                extraTimeout: extraTimeout, on: connection, sharedOwner: sharedOwner) {
            case .reply(let reply):
                let outcome = TransportRetryPolicy.outcome(of: reply)
                let safe = outcome == .notDelivered || (outcome == .maybeApplied && endpoint.isSafeToRepeat)
                if outcome == .final || !safe || attempt + 1 >= policy.maxAttempts {
                    guard reply.status == 200 else { throw Self.error(of: reply) }
                    return reply
                }
            case .refused(let refused):
                refusedTries += 1
                guard refusedTries < policy.refusedAttempts, attempt + 1 < policy.maxAttempts else { throw refused }
                TransportRetryPolicy.sleep(policy.delay(attempt: attempt))
                attempt += 1
                continue
            case .lost(let lost):
                // Sent in full, then the connection closed with no reply: like a balancer's 502,
                // the node may have acted on it (only endpoints safe to repeat come here).
                repeated = true
                guard attempt + 1 < policy.maxAttempts else { throw lost }
                TransportRetryPolicy.sleep(policy.delay(attempt: attempt))
                attempt += 1
                continue
            }
            // A balancer's 503 normally means no node got the request, but a repeat after any
            // gateway reply is reconciled all the same (a save that meets exactly itself).
            repeated = true
            TransportRetryPolicy.sleep(policy.delay(attempt: attempt))
            attempt += 1
        }
    }

    /// What one try of `send` came to, short of a thrown failure.
    enum Try {
        /// A reply, whatever its status.
        case reply(HTTPReply)
        /// A refused connection: nothing was sent.
        case refused(CloudError)
        /// The request went out in full and the connection closed with no reply, for an endpoint
        /// that is safe to repeat but not idempotent (a save, a poll): the node may have acted.
        case lost(CloudError)
    }

    /// One try of `send`: a reply, a refused connection or a lost one (which `exchange` tries
    /// again); other failures are thrown.
    func sendOnce(_ endpoint: WebServicesEndpoint, container: String, environment: CloudEnvironment?, scope: DatabaseScope,
                  account: String, device: String?, body: [UInt8], method: String, query: String, contentType: String,
                  extraTimeout: Double, on connection: CurlSession?,
                  sharedOwner: String?) throws(CloudError) -> Try {
        let pathEnvironment = environment.flatMap { WebServicesEnvironment(rawValue: $0.rawValue) } ?? configuration.environment
        let path = WebServicesPath(container: container, environment: pathEnvironment, scope: scope, endpoint: endpoint)
        var headers: [(String, String)] = [("Content-Type", contentType)]
        // No account named (empty): the server acts as the credential's own account.
        if !account.isEmpty { headers.append((WebServicesHeader.account, account)) }
        if let device { headers.append((WebServicesHeader.device, device)) }
        if let sharedOwner { headers.append((WebServicesHeader.sharedOwner, sharedOwner)) }
        if let token = configuration.token(account) { headers.append(("Authorization", "Bearer \(token)")) }
        let seen = Self.positions.withLock { $0[configuration.baseURL] ?? 0 }
        if seen > 0 { headers.append((WebServicesHeader.position, ReadPosition(offset: seen).text)) }
        do {
            let reply = try (connection ?? session).perform(method: method, url: configuration.baseURL + path.text + query, headers: headers,
                                                            body: body, connectTimeout: configuration.connectTimeout,
                                                            timeout: configuration.requestTimeout + extraTimeout,
                                                            maxReplyBytes: configuration.maxReplyBytes, caFile: configuration.caFile)
            if let text = reply.header(WebServicesHeader.position), let replied = ReadPosition(text: text) {
                Self.positions.withLock { $0[configuration.baseURL] = max($0[configuration.baseURL] ?? 0, replied.offset) }
            }
            return .reply(reply)
        } catch {
            let shown = CloudLocator.maskingPassword(configuration.baseURL)
            switch error {
            case .refused(let why): return .refused(CloudError(.networkUnavailable, "cannot reach the cloud at \(shown): \(why)"))
            case .unreachable(let why): throw CloudError(.networkUnavailable, "cannot reach the cloud at \(shown): \(why)")
            case .library: throw CloudError(.networkUnavailable, error.description)
            case .failed, .replyTooLarge: throw CloudError(.networkFailure, error.description)
            case .closedBeforeReply(_, let sent):
                // A save or poll that went out: repeated by `exchange` as after a 502.
                if sent && !endpoint.isIdempotent && endpoint.isSafeToRepeat { return .lost(CloudError(.networkFailure, error.description)) }
                // Retried as a 503 is (RetryingCloud's try-later policy, its own backoff: a
                // `retryAfter` of 0 gives no hint) when the request is safe to send again.
                guard !sent || endpoint.isIdempotent else { throw CloudError(.networkFailure, error.description) }
                throw CloudError(.serviceUnavailable, error.description, retryAfter: 0)
            }
        }
    }

    /// The CloudError of a non-200 reply: its Web Services error body, the status otherwise.
    static func error(of reply: HTTPReply) -> CloudError {
        let json = (try? JSONValue.parse(bytes: reply.body)) ?? .object([])
        var error = WebServicesError.decode(json, status: reply.status)
        if json["serverErrorCode"] == nil {
            error.code = WebServicesError.codeForStatus(reply.status)
        }
        if reply.status == 401 { error.code = .notAuthenticated }
        if reply.status == 403 { error.code = .permissionFailure }
        if error.retryAfter == nil, let text = reply.header("Retry-After"), let seconds = Double(text), seconds.isFinite, seconds >= 0 {
            error.retryAfter = seconds
        }
        return error
    }

    /// A JSON call in the database of `request`.
    func call(_ endpoint: WebServicesEndpoint, _ body: JSONValue, in request: DatabaseRequest, extraTimeout: Double = 0,
              on connection: CurlSession? = nil) throws(CloudError) -> JSONValue {
        let reply = try send(endpoint, container: request.container, environment: request.environment, scope: request.scope,
                             account: try accountName(request.userRecordName),
                             device: request.deviceID, body: Array(body.serialized().utf8), extraTimeout: extraTimeout, on: connection,
                             sharedOwner: request.scope == .shared ? request.sharedOwner : nil)
        return try Self.parse(reply)
    }

    static func parse(_ reply: HTTPReply) throws(CloudError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes: reply.body)
        } catch {
            throw CloudError(.networkFailure, "the cloud's reply is not JSON (\(error.description))")
        }
    }
}
