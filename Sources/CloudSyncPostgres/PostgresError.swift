/// What went wrong talking to PostgreSQL. Every case reads as one line (`description`) and never
/// contains the password. The later mapping to exit codes: `unreachable`, `connectionFailed`,
/// `connectionLost` and `libraryUnavailable` are "cloud unavailable" (69), `authenticationFailed`
/// is "permission denied" (77), `invalidURL` is usage (64).
public enum PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `postgres://` URL cannot be used: why.
    case invalidURL(String)
    /// libpq could not be loaded (the loader's one-line reason, with the package to install).
    case libraryUnavailable(String)
    /// No server answered: the endpoint (`host:port` or socket folder) and libpq's reason
    /// (connection refused, timeout expired, unknown host…).
    case unreachable(endpoint: String, reason: String)
    /// The server refused the credentials (wrong password, unknown role, no `pg_hba.conf` entry).
    case authenticationFailed(user: String, reason: String)
    /// The server answered but has no database of that name.
    case databaseMissing(String)
    /// The server answered and refused the connection for another reason (too many clients,
    /// starting up or shutting down, SSL required…).
    case connectionFailed(String)
    /// An open connection broke (the server went away or closed it).
    case connectionLost(String)
    /// A statement failed on the server: its SQLSTATE (such as `40001`) and primary message.
    case server(sqlState: String, message: String)
    /// The caller asked for something that cannot be sent (a NUL byte in text, a bad channel name…).
    case invalidArgument(String)
    /// A result value is not what was asked for (row and column, expected type).
    case unexpectedValue(String)

    public var description: String {
        switch self {
        case .invalidURL(let why): "invalid PostgreSQL URL: \(why)"
        case .libraryUnavailable(let why): why
        case .unreachable(let endpoint, let reason): "cannot reach PostgreSQL at \(endpoint): \(reason)"
        case .authenticationFailed(let user, let reason):
            "PostgreSQL refused the credentials of user \"\(user)\": \(reason)"
        case .databaseMissing(let name): "PostgreSQL database \"\(name)\" does not exist"
        case .connectionFailed(let reason): "PostgreSQL refused the connection: \(reason)"
        case .connectionLost(let reason): "lost the connection to PostgreSQL: \(reason)"
        case .server(let sqlState, let message): "PostgreSQL error \(sqlState): \(message)"
        case .invalidArgument(let why): why
        case .unexpectedValue(let why): why
        }
    }

    /// The SQLSTATE of a statement's failure, nil for the other cases.
    public var sqlState: String? {
        if case .server(let state, _) = self { return state }
        return nil
    }

    /// True for the failures a transaction is retried after: `serialization_failure` (40001) and
    /// `deadlock_detected` (40P01).
    public var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// True when `statement_timeout` cancelled the statement (`query_canceled`, 57014).
    public var isStatementTimeout: Bool { sqlState == "57014" }
}

extension PostgresError {
    /// One line from libpq's or the server's message: the lines joined, runs of blanks (libpq
    /// writes `FATAL:  ` and tab-indented hints) collapsed, control characters dropped.
    static func oneLine(_ text: String) -> String {
        var out = ""
        var blank = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                blank = true
                continue
            }
            if scalar.value < 0x20 || scalar.value == 0x7F { continue }
            if blank && !out.isEmpty { out.append(" ") }
            blank = false
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// Classifies a failed connection from libpq's message (libpq gives no SQLSTATE for these).
    /// The server's own refusals are `FATAL:` lines; anything else is the network's answer.
    static func connecting(_ message: String, url: PostgresURL) -> PostgresError {
        let lines = message.split(whereSeparator: { $0 == "\n" }).map { oneLine(String($0)) }.filter { !$0.isEmpty }
        func line(containing needles: [String]) -> String? {
            lines.first { line in needles.contains { line.contains($0) } }
        }
        func reason(_ line: String) -> String {
            // "connection to server at "127.0.0.1", port 5432 failed: FATAL: password ..." -> "password ..."
            var text = Substring(line)
            if let range = text.firstRange(of: "failed: ") { text = text[range.upperBound...] }
            if text.hasPrefix("FATAL: ") { text = text.dropFirst("FATAL: ".count) }
            return String(text)
        }
        let user = url.user ?? ""
        if let found = line(containing: ["password authentication failed", "no password supplied",
                                         "authentication failed", "pg_hba.conf", "role \"",
                                         "password is required", "SCRAM"]) {
            return .authenticationFailed(user: user, reason: reason(found))
        }
        if line(containing: ["database \""]).map({ $0.contains("does not exist") }) == true {
            return .databaseMissing(url.database ?? user)
        }
        if let found = line(containing: ["FATAL:", "SSL", "server closed the connection"]) {
            return .connectionFailed(reason(found))
        }
        return .unreachable(endpoint: url.endpoint, reason: lines.first.map(reason) ?? "unknown error")
    }
}
