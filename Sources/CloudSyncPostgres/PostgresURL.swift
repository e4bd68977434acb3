/// A parsed `postgres://user[:password]@host[:port]/database[?sslmode=…&connect_timeout=…]`
/// (or `postgresql://`). Parts are percent-decoded; what is missing is left to libpq's defaults
/// (the unix socket, port 5432, the operating-system user, a database named like the user).
///
/// Accepted: a host name, an IPv4 address, a bracketed IPv6 address (`[::1]`) or a percent-encoded
/// unix socket folder (`%2Fvar%2Frun%2Fpostgresql`); the query parameters `sslmode`,
/// `connect_timeout` (seconds) and `application_name`. Refused with `PostgresError.invalidURL`:
/// anything longer than 4096 bytes, control characters, fragments, bad percent escapes, several
/// hosts, ports outside 1...65535, unknown or repeated parameters.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    public var user: String?
    public var password: String?
    /// A host name or address, or a socket folder (starts with `/`); nil: libpq's default socket.
    public var host: String?
    public var port: Int?
    public var database: String?
    /// `disable`, `allow`, `prefer`, `require`, `verify-ca` or `verify-full`.
    public var sslMode: String?
    /// Seconds to wait for the server; the connection uses 10 when the URL says nothing, so an
    /// unreachable server is an error, not a hang (0 waits forever, as in libpq).
    public var connectTimeout: Int?
    public var applicationName: String?
    /// cloudsync's own parameter `schema`: the PostgreSQL schema that holds the cloud's tables
    /// (created on first use), so several clouds can share one database. Not sent to libpq.
    public var schema: String?

    /// The longest URL accepted, in bytes.
    public static let maximumLength = 4096
    /// The `sslmode` values libpq knows.
    public static let sslModes: Set<String> = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    public init(user: String? = nil, password: String? = nil, host: String? = nil, port: Int? = nil,
                database: String? = nil, sslMode: String? = nil, connectTimeout: Int? = nil,
                applicationName: String? = nil) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.sslMode = sslMode
        self.connectTimeout = connectTimeout
        self.applicationName = applicationName
    }

    /// Parses `text`; throws `.invalidURL` with the reason.
    public init(_ text: String) throws(PostgresError) {
        self.init()
        let bytes = Array(text.utf8)
        guard bytes.count <= PostgresURL.maximumLength else {
            throw .invalidURL("longer than \(PostgresURL.maximumLength) bytes")
        }
        if let bad = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x20 }) {
            throw .invalidURL(bytes[bad] == 0x20 ? "contains a space (write %20)" : "contains a control character")
        }
        var rest = Substring(text)
        let lowered = text.prefix(16).lowercased()
        if lowered.hasPrefix("postgres://") {
            rest = rest.dropFirst("postgres://".count)
        } else if lowered.hasPrefix("postgresql://") {
            rest = rest.dropFirst("postgresql://".count)
        } else {
            throw .invalidURL("must start with postgres:// or postgresql://")
        }
        if rest.contains("#") { throw .invalidURL("a fragment (#…) has no meaning here") }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        try parseAuthority(rest)
        if path.contains("/") { throw .invalidURL("the database name contains '/' (write %2F)") }
        if !path.isEmpty { database = try PostgresURL.decode(path, "database name", allowControls: false) }
        try parseQuery(query)
    }

    /// `user:password@host:port`.
    private mutating func parseAuthority(_ authority: Substring) throws(PostgresError) {
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                let name = userInfo[..<colon]
                if !name.isEmpty { user = try PostgresURL.decode(name, "user name", allowControls: false) }
                password = try PostgresURL.decode(userInfo[userInfo.index(after: colon)...], "password", allowControls: true)
            } else if !userInfo.isEmpty {
                user = try PostgresURL.decode(userInfo, "user name", allowControls: false)
            }
        }
        if hostPort.contains(",") { throw .invalidURL("several hosts are not supported") }
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw .invalidURL("an IPv6 address lacks its ']'") }
            let address = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            guard address.contains(":"),
                  address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw .invalidURL("\"[\(address)]\" is not an IPv6 address")
            }
            host = String(address)
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else {
            var name = hostPort
            if let colon = hostPort.firstIndex(of: ":") {
                name = hostPort[..<colon]
                portText = hostPort[hostPort.index(after: colon)...]
                if portText?.contains(":") == true {
                    throw .invalidURL("an IPv6 address must be written in brackets ([::1])")
                }
            }
            if !name.isEmpty {
                let decoded = try PostgresURL.decode(name, "host", allowControls: false)
                if !decoded.hasPrefix("/") {
                    guard decoded.utf8.allSatisfy({ byte in
                        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                            || byte == 0x2D || byte == 0x2E || byte == 0x5F
                    }) else { throw .invalidURL("\"\(decoded)\" is not a host name") }
                }
                host = decoded
            }
        }
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let number = Int(portText), (1...65535).contains(number) else {
                throw .invalidURL("the port must be a number from 1 to 65535")
            }
            port = number
        }
    }

    /// `sslmode=…&connect_timeout=…&application_name=…`.
    private mutating func parseQuery(_ query: Substring) throws(PostgresError) {
        var seen: Set<String> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else { throw .invalidURL("parameter \"\(pair)\" has no value") }
            let key = try PostgresURL.decode(pair[..<equals], "parameter name", allowControls: false)
            let value = try PostgresURL.decode(pair[pair.index(after: equals)...], "parameter \(key)", allowControls: false)
            guard seen.insert(key).inserted else { throw .invalidURL("parameter \"\(key)\" is given twice") }
            switch key {
            case "sslmode":
                guard PostgresURL.sslModes.contains(value) else {
                    throw .invalidURL("sslmode must be one of \(PostgresURL.sslModes.sorted().joined(separator: ", "))")
                }
                sslMode = value
            case "connect_timeout":
                guard !value.isEmpty, value.count <= 6, value.allSatisfy({ $0.isASCII && $0.isNumber }),
                      let seconds = Int(value), seconds <= 86_400 else {
                    throw .invalidURL("connect_timeout must be a number of seconds from 0 to 86400")
                }
                connectTimeout = seconds
            case "application_name":
                applicationName = value
            case "schema":
                guard !value.isEmpty, value.utf8.count <= PostgresConnection.maximumChannelLength,
                      value.utf8.allSatisfy({ byte in
                          (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
                      }), !(value.first?.isNumber ?? true) else {
                    throw .invalidURL("schema must be 1 to 63 lowercase letters, digits or '_', not starting with a digit")
                }
                schema = value
            default:
                throw .invalidURL("unknown parameter \"\(key)\" (known: sslmode, connect_timeout, application_name, schema)")
            }
        }
    }

    /// Percent-decodes one part: `%` needs two hex digits, the result must be UTF-8 without NUL
    /// (and without control characters, unless `allowControls`: a password may hold anything).
    static func decode(_ part: Substring, _ what: String, allowControls: Bool) throws(PostgresError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.utf8.count)
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .invalidURL("the \(what) has a bad percent escape (% needs two hex digits)")
            }
            bytes.append(high << 4 | low)
        }
        if bytes.contains(0) { throw .invalidURL("the \(what) contains a NUL byte") }
        if !allowControls, bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .invalidURL("the \(what) contains a control character")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidURL("the \(what) is not UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Where the server is, for messages: `host:port`, `[::1]:port` or the socket folder.
    public var endpoint: String {
        let port = self.port ?? 5432
        guard let host else { return "the local socket (port \(port))" }
        if host.hasPrefix("/") { return "\(host) (port \(port))" }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The URL with the password replaced by `***`, for messages and logs.
    public var description: String {
        var text = "postgres://"
        if let user { text += PostgresURL.encode(user) }
        if password != nil { text += ":***" }
        if user != nil || password != nil { text += "@" }
        if let host { text += host.contains(":") ? "[\(host)]" : PostgresURL.encode(host) }
        if let port { text += ":\(port)" }
        text += "/" + (database.map(PostgresURL.encode) ?? "")
        var query: [String] = []
        if let sslMode { query.append("sslmode=\(sslMode)") }
        if let connectTimeout { query.append("connect_timeout=\(connectTimeout)") }
        if let applicationName { query.append("application_name=\(PostgresURL.encode(applicationName))") }
        if let schema { query.append("schema=\(schema)") }
        if !query.isEmpty { text += "?" + query.joined(separator: "&") }
        return text
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return out
    }

    /// libpq's connection keywords and values (`PQconnectdbParams`, no URL expansion: nothing in
    /// a value is interpreted).
    var connectionParameters: [(String, String)] {
        var parameters: [(String, String)] = []
        if let host { parameters.append(("host", host)) }
        if let port { parameters.append(("port", String(port))) }
        if let user { parameters.append(("user", user)) }
        if let password { parameters.append(("password", password)) }
        if let database { parameters.append(("dbname", database)) }
        if let sslMode { parameters.append(("sslmode", sslMode)) }
        parameters.append(("connect_timeout", String(connectTimeout ?? 10)))
        if let applicationName { parameters.append(("application_name", applicationName)) }
        parameters.append(("fallback_application_name", "cloudsync"))
        parameters.append(("client_encoding", "UTF8"))
        return parameters
    }
}
