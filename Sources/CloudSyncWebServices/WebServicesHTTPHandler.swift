import CloudSyncCloud
import CloudSyncCore
import CloudSyncHTTPServer

/// `cloudsync serve`'s handler: an HTTP request from `HTTPServer`, its credentials checked by
/// the authenticator, answered by the pure `WebServicesHandler`; the log line names the account.
public struct WebServicesHTTPHandler: HTTPHandler {
    let handler: WebServicesHandler
    let authenticator: any WebServicesAuthenticator

    public init(handler: WebServicesHandler, authenticator: any WebServicesAuthenticator) {
        self.handler = handler
        self.authenticator = authenticator
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let query = request.query.map { ($0.name, $0.value) }
        let headers = request.headers.map { ($0.name, $0.value) }
        let caller: Caller?
        do {
            caller = try authenticator.caller(method: request.method, path: request.path, query: query, headers: headers,
                                              body: request.body)
        } catch {
            return response(handler.errorResponse(error, status: 503, uuid: RequestUUID.make(), serverErrorCode: "TRY_AGAIN_LATER"),
                            account: nil)
        }
        let answer = handler.handle(WebServicesRequest(method: request.method, path: request.path, query: query,
                                                       headers: headers, body: request.body, caller: caller))
        return response(answer, account: caller?.account)
    }

    /// The HTTP form of a Web Services answer; the log line names `account`.
    func response(_ answer: WebServicesResponse, account: String?) -> HTTPResponse {
        var responseHeaders = HTTPHeaders()
        for (name, value) in answer.headers { responseHeaders.add(name, value) }
        return HTTPResponse(status: answer.status, headers: responseHeaders, body: answer.body, logAccount: account)
    }
}
