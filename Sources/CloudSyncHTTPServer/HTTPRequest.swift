/// One HTTP request as the handler sees it, read in full (its body within the server's limit).
public struct HTTPRequest: Sendable {
    /// One query-string parameter, percent-decoded; a parameter without `=` has the value "".
    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `GET`, `POST`, … as sent.
    public var method: String
    /// The path, percent-decoded, without the query string (`/database/1/…`).
    public var path: String
    /// The query string's parameters in order (a name may repeat).
    public var query: [QueryItem]
    /// The header fields; look-ups ignore case.
    public var headers: HTTPHeaders
    /// The body's bytes (empty when none was sent).
    public var body: [UInt8]
    /// The peer's address, `127.0.0.1` or `::1` style, without the port ("" when unknown).
    public var remoteAddress: String
    /// What the handler's `admission` learned from the head (nil when it noted nothing).
    public var admissionNote: (any Sendable)?

    public init(method: String, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:], body: [UInt8] = [],
                remoteAddress: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The first value of query parameter `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
