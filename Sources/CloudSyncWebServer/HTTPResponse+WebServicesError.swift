import CloudSyncCore
import CloudSyncHTTPServer

extension HTTPResponse {
    /// A Web Services error reply `{"serverErrorCode": code, "reason": reason}` (and
    /// `retryAfter` plus a `Retry-After` header when given, in seconds; `ckErrorCode`, the
    /// precise CKError code behind a documented `code`, when given). `code` is one of Apple's
    /// documented codes, with its documented `status`.
    public static func error(status: Int, code: String, reason: String, retryAfter: Int? = nil,
                             ckErrorCode: String? = nil) -> HTTPResponse {
        var members: [(String, JSONValue)] = [("serverErrorCode", .string(code)), ("reason", .string(reason))]
        if let retryAfter { members.append(("retryAfter", .int(Int64(retryAfter)))) }
        if let ckErrorCode { members.append(("ckErrorCode", .string(ckErrorCode))) }
        var response = json(status: status, .object(members))
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }
}
