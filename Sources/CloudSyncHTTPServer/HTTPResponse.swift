import CloudSyncCore

/// What a handler answers: status, header fields and body bytes (`Content-Length` is added by the
/// server), plus the account to name in the request's log line.
public struct HTTPResponse: Sendable {
    /// The status code (200, 404, …).
    public var status: Int
    /// Header fields to send; field values with line breaks are not sent.
    public var headers: HTTPHeaders
    /// The body's bytes.
    public var body: [UInt8]
    /// The account the request acted as, for the log line only (never sent); nil logs `-`.
    public var logAccount: String?

    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = [], logAccount: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.logAccount = logAccount
    }

    /// A JSON reply: `Content-Type: application/json; charset=utf-8` and `json`'s compact text.
    public static func json(status: Int = 200, _ json: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"],
                     body: Array(json.serialized().utf8))
    }

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
