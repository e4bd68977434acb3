import CloudSyncService

/// One HTTP request as the handler sees it: what any server front end (libmicrohttpd, a test
/// loopback server) hands over after reading it and authenticating the caller.
public struct WebServicesRequest: Sendable {
    public var method: String
    /// The path without its query string, percent-decoding not applied (paths of this protocol
    /// hold no escapes).
    public var path: String
    /// The query string's pairs, decoded.
    public var query: [(String, String)]
    /// Header names in any case.
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Who the credential names (its account and role), or nil when there was none or it was refused.
    public var caller: Caller?

    /// The account the credential names, or nil.
    public var account: String? { caller?.account }

    public init(method: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                body: [UInt8] = [], caller: Caller?) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.caller = caller
    }

    /// A request whose credential names `account` without the administrator role.
    public init(method: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                body: [UInt8] = [], account: String?) {
        self.init(method: method, path: path, query: query, headers: headers, body: body,
                  caller: account.map { Caller(account: $0, standing: .credential(isAdmin: false)) })
    }

    /// The first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.0.lowercased() == lower }?.1
    }

    /// The first query parameter named `name`.
    public func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
}

/// The handler's answer.
public struct WebServicesResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.0.lowercased() == lower }?.1
    }
}

/// Header names of this project's extensions.
public enum WebServicesHeader {
    /// The caller's device name (recorded in system fields, addressed by notifications).
    public static let device = "X-CloudSync-Device"
    /// The account the client means to act as: a credential for another account is 403.
    public static let account = "X-CloudSync-Account"
    /// Extension (issue 18): on a shared-database path, the userRecordName of the owner whose
    /// shared zone the call addresses (as `zoneID.ownerRecordName` in a body may also say).
    public static let sharedOwner = "X-CloudSync-Shared-Owner"
    /// Extension (issue 28, read replicas): the primary's write-ahead-log position a reply
    /// reflects, as PostgreSQL writes it (`16/B374D848`); a client sends back the highest it has
    /// seen, so that a server with `--read-replica` reads for it only from a replica that has
    /// replayed that far. See `ReadPosition`.
    public static let position = "X-CloudSync-Position"
    /// The device name used when a request names none.
    public static let defaultDevice = "web"
}
