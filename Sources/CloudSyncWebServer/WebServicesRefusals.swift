import CloudSyncHTTPServer

/// The HTTP server's own refusals (`HTTPRefusal`) as CloudKit Web Services error bodies: one of
/// Apple's documented `serverErrorCode` values with its documented status, the precise CKError
/// code in `ckErrorCode` where Apple documents none for the case (a body too large is
/// `BAD_REQUEST` 400, `limitExceeded`), and `retryAfter` where the client may try again.
public enum WebServicesRefusals {
    /// The CloudKit-shaped answer to `refusal` (the server adds `Connection: close` itself).
    public static func response(to refusal: HTTPRefusal) -> HTTPResponse {
        let reason = refusal.reason
        return switch refusal {
        case .badTarget:
            .error(status: 400, code: "BAD_REQUEST", reason: reason)
        case .bodyTooLarge:
            // Apple documents no code for a body too large: BAD_REQUEST (400), the precise one in ckErrorCode.
            .error(status: 400, code: "BAD_REQUEST", reason: reason, ckErrorCode: "limitExceeded")
        case .unreadableGzipBody:
            .error(status: 400, code: "BAD_REQUEST", reason: reason, ckErrorCode: "invalidArguments")
        case .unsupportedContentEncoding:
            // Apple documents no code for it: BAD_REQUEST with HTTP's own status.
            .error(status: 415, code: "BAD_REQUEST", reason: reason, ckErrorCode: "invalidArguments")
        case .busy(let retry):
            .error(status: 503, code: "TRY_AGAIN_LATER", reason: reason, retryAfter: retry, ckErrorCode: "serviceUnavailable")
        case .bodyMemoryFull(let retry), .tooManyLongPolls(let retry):
            .error(status: 503, code: "TRY_AGAIN_LATER", reason: reason, retryAfter: retry)
        }
    }
}
