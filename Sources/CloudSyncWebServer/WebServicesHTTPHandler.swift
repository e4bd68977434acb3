import CloudSyncService
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebProtocol

/// `cloudsync serve`'s handler: an HTTP request from `HTTPServer`, its credentials checked by
/// the authenticator, answered by the pure `WebServicesHandler`; the log line names the account.
public struct WebServicesHTTPHandler: HTTPHandler {
    let handler: WebServicesHandler
    let authenticator: any WebServicesAuthenticator
    let longPolls: LongPollLimiter

    /// `longPolls` bounds the `notifications/poll` requests held open per account and device.
    public init(handler: WebServicesHandler, authenticator: any WebServicesAuthenticator,
                longPolls: LongPollLimits = LongPollLimits()) {
        self.handler = handler
        self.authenticator = authenticator
        self.longPolls = LongPollLimiter(longPolls)
    }

    /// Refuses a request whose credential is bad from its head alone (401, connection closed,
    /// body unread); see `CredentialPrecheck.swift`.
    public func admit(_ head: HTTPRequestHead) -> HTTPResponse? {
        if case .refused(let response) = admission(head) { return response }
        return nil
    }

    /// `admit`, noting the credential found in force for `handle` (looked up once per request).
    public func admission(_ head: HTTPRequestHead) -> HTTPAdmission {
        if head.path == AnonymousAccess.signInPath { return .admitted(note: nil) }
        switch authenticator.admission(path: head.path, query: head.query.map { ($0.name, $0.value) },
                                       headers: head.headers.map { ($0.name, $0.value) }) {
        case .refused(let refusal): return .refused(handler.refusalResponse(refusal))
        case .admitted(let credential): return .admitted(note: credential)
        }
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let query = request.query.map { ($0.name, $0.value) }
        let headers = request.headers.map { ($0.name, $0.value) }
        let prechecked = request.admissionNote as? PrecheckedCredential
        let caller: Caller?
        do {
            caller = try authenticator.caller(method: request.method, path: request.path, query: query, headers: headers,
                                              body: request.body, prechecked: prechecked)
        } catch {
            return unavailable(error)
        }
        guard let caller else {
            if request.path == AnonymousAccess.signInPath {
                return response(handler.handle(WebServicesRequest(method: request.method, path: request.path, caller: nil)), account: nil)
            }
            // Which part of the credential failed: what the head shows, else the signature.
            let refusal = authenticator.precheck(path: request.path, query: query, headers: headers) ?? .badSignature
            return handler.refusalResponse(refusal)
        }
        // A token admitted from the cache: the request's write confirms it, else it is looked
        // up now, before anything is answered.
        let confirmation = prechecked.flatMap { $0.confirmedLater ? CredentialConfirmation(credentialID: $0.row.id) : nil }
        let answer = limitingLongPolls(request, account: caller.account) {
            CredentialConfirmation.$current.withValue(confirmation) {
                handler.handle(WebServicesRequest(method: request.method, path: request.path, query: query,
                                                  headers: headers, body: request.body, caller: caller))
            }
        }
        if let confirmation, let prechecked, !confirmation.isConfirmed {
            do {
                if let refusal = try authenticator.confirm(prechecked) { return handler.refusalResponse(refusal) }
            } catch {
                return unavailable(error)
            }
        }
        return response(answer, account: caller.account.isEmpty ? "(api token)" : caller.account)
    }

    /// 503 `TRY_AGAIN_LATER`: the credentials could not be read (`error` carries `retryAfter`).
    func unavailable(_ error: CloudError) -> HTTPResponse {
        response(handler.errorResponse(error, status: 503, uuid: RequestUUID.make(), serverErrorCode: "TRY_AGAIN_LATER"),
                 account: nil)
    }

    /// The HTTP form of a Web Services answer; the log line names `account`.
    func response(_ answer: WebServicesResponse, account: String?) -> HTTPResponse {
        var responseHeaders = HTTPHeaders()
        for (name, value) in answer.headers { responseHeaders.add(name, value) }
        return HTTPResponse(status: answer.status, headers: responseHeaders, body: answer.body, logAccount: account)
    }
}
