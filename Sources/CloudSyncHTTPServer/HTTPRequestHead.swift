/// A request as far as its headers: what `HTTPHandler.admit` judges before any body byte is read.
public struct HTTPRequestHead: Sendable {
    /// `GET`, `POST`, … as sent.
    public var method: String
    /// The path, percent-decoded, without the query string.
    public var path: String
    /// The query string's parameters in order (a name may repeat).
    public var query: [HTTPRequest.QueryItem]
    /// The header fields; look-ups ignore case.
    public var headers: HTTPHeaders
    /// The peer's address, `127.0.0.1` or `::1` style, without the port ("" when unknown).
    public var remoteAddress: String

    public init(method: String, path: String, query: [HTTPRequest.QueryItem] = [], headers: HTTPHeaders = [:],
                remoteAddress: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
    }

    /// The first value of query parameter `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
