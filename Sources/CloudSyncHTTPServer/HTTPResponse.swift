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
}
