import CloudSyncHTTPServer
import CloudSyncWebProtocol

/// What the HTTP server asks of the Web Services handler beyond answering requests.
extension WebServicesHTTPHandler {
    /// The server's own refusals as CloudKit error bodies (`WebServicesRefusals`).
    public func response(to refusal: HTTPRefusal) -> HTTPResponse {
        WebServicesRefusals.response(to: refusal)
    }

    /// `notifications/poll` waits for notifications rather than works: it skips the server's
    /// handler gate, and `reservedConnections` are kept from it.
    public func isLongPoll(_ request: HTTPRequest) -> Bool {
        request.path.hasSuffix("/" + WebServicesEndpoint.notificationsPoll.rawValue)
    }
}
