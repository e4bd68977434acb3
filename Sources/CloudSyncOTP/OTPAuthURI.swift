import CloudSyncCrypto

/// The `otpauth://TYPE/LABEL?secret=…&issuer=…` key URI format (Google Authenticator's Key Uri
/// Format), with Aegis' `otpauth://steam/` and KeePassXC's `encoder=steam` for Steam tokens.
public enum OTPAuthURI {
    /// The scheme, with its slashes.
    public static let prefix = "otpauth://"

    /// True when `text` looks like an otpauth URI (any case).
    public static func looksLikeURI(_ text: String) -> Bool {
        text.utf8.count >= prefix.utf8.count && text.prefix(prefix.count).lowercased() == prefix
    }

    /// Parses a URI into a token (named after its label unless it carries cloudsync's `name`).
    /// Refuses a missing or bad secret, an unknown type or algorithm, digits out of range, an
    /// issuer that differs between label and parameter, and HOTP without a counter.
    public static func parse(_ uri: String) throws(OTPError) -> OTPToken {
        var text = uri.trimmingWhitespace()
        guard looksLikeURI(text) else { throw .invalidURI("not an otpauth:// URI") }
        // A fragment (`#…`) is not part of the last parameter (RFC 3986 §3.5); a `#` in a value is `%23`.
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        let rest = text.dropFirst(prefix.count)
        let beforeQuery = rest.prefix { $0 != "?" }
        let query = rest.dropFirst(beforeQuery.count + 1)
        guard let slash = beforeQuery.firstIndex(of: "/") else { throw .invalidURI("the URI has no label (otpauth://TYPE/LABEL?…)") }
        let typeName = beforeQuery[..<slash].lowercased()
        let encodedLabel = beforeQuery[beforeQuery.index(after: slash)...]
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let key = pair.prefix { $0 != "=" }
            let value = pair.dropFirst(key.count + 1)
            guard let name = PercentEncoding.decode(key, plusIsSpace: true)?.lowercased(),
                  let decoded = PercentEncoding.decode(value, plusIsSpace: true) else {
                throw .invalidURI("the parameter '\(key)' has a broken %-escape")
            }
            guard parameters[name] == nil else { throw .invalidURI("the parameter '\(name)' appears twice") }
            parameters[name] = decoded
        }

        var kind: OTPKind
        switch typeName {
        case "totp": kind = parameters["encoder"]?.lowercased() == "steam" ? .steam : .totp
        case "hotp": kind = .hotp
        case "steam": kind = .steam
        case "": throw .invalidURI("the URI has no type (otpauth://totp/… or otpauth://hotp/…)")
        default: throw .invalidURI("unknown OTP type '\(typeName)'; use totp, hotp or steam")
        }

        guard let secretText = parameters["secret"], !secretText.isEmpty else { throw .invalidURI("the URI has no secret") }
        let secret = try Base32.decode(secretText)

        // The label is `issuer:account` or `account`; spaces after the colon are allowed. A
        // literal colon separates; without one, an escaped colon (%3A) does.
        var labelIssuer = ""
        var account: String
        if let colon = encodedLabel.firstIndex(of: ":") {
            guard let issuerPart = PercentEncoding.decode(encodedLabel[..<colon], plusIsSpace: false),
                  let accountPart = PercentEncoding.decode(encodedLabel[encodedLabel.index(after: colon)...], plusIsSpace: false) else {
                throw .invalidURI("the label has a broken %-escape")
            }
            labelIssuer = issuerPart.trimmingWhitespace()
            account = accountPart
        } else {
            guard let decoded = PercentEncoding.decode(encodedLabel, plusIsSpace: false) else {
                throw .invalidURI("the label has a broken %-escape")
            }
            account = decoded
            if let colon = decoded.firstIndex(of: ":") {
                labelIssuer = String(decoded[..<colon]).trimmingWhitespace()
                account = String(decoded[decoded.index(after: colon)...])
            }
        }
        account = account.trimmingWhitespace()
        let parameterIssuer = parameters["issuer"]?.trimmingWhitespace()
        if let parameterIssuer, !labelIssuer.isEmpty, !parameterIssuer.isEmpty,
           parameterIssuer.lowercased() != labelIssuer.lowercased() {
            throw .invalidURI("the issuer differs between the label ('\(labelIssuer)') and the issuer parameter ('\(parameterIssuer)')")
        }
        let issuer = parameterIssuer.flatMap { $0.isEmpty ? nil : $0 } ?? labelIssuer

        var algorithm = HashFunction.sha1
        if let name = parameters["algorithm"], kind != .steam { algorithm = try HashFunction(otpName: name) }
        var digits = kind == .steam ? 5 : 6
        if let text = parameters["digits"], kind != .steam {
            guard let n = Int(text) else { throw .invalidURI("digits must be a number, got '\(text)'") }
            guard (6...8).contains(n) else { throw .invalidURI("digits must be 6 to 8, got \(n)") }
            digits = n
        }
        var period = OTPToken.defaultPeriod
        if let text = parameters["period"], kind.isTimeBased {
            guard let n = Int(text), (1...86_400).contains(n) else {
                throw .invalidURI("the period must be 1 to 86400 seconds, got '\(text)'")
            }
            period = n
        }
        var counter: UInt64 = 0
        if kind == .hotp {
            guard let text = parameters["counter"] else { throw .invalidURI("an HOTP URI needs a counter parameter") }
            guard let n = UInt64(text), n <= UInt64(Int64.max) else {
                throw .invalidURI("the counter must be a whole number from 0, got '\(text)'")
            }
            counter = n
        }
        // The name is trimmed like the label: a name of spaces alone is no name (it would format as
        // a label that parses back empty).
        let token = OTPToken(name: parameters["name"]?.trimmingWhitespace() ?? "", issuer: issuer, account: account,
                             secret: secret, kind: kind, algorithm: algorithm, digits: digits, period: period,
                             counter: counter)
        do {
            try token.validate()
        } catch {
            throw .invalidURI(error.description)
        }
        return token
    }

    /// The URI of a token: `otpauth://TYPE/ISSUER:ACCOUNT?secret=…&issuer=…&algorithm=…&digits=…&period=…`
    /// (`counter` for HOTP). A name other than the label travels as a `name` parameter, which
    /// other apps ignore.
    public static func format(_ token: OTPToken) -> String {
        let account = token.account.isEmpty && token.issuer.isEmpty ? token.name : token.account
        var label = PercentEncoding.encode(account, keeping: "@")
        // With no literal colon, an escaped one separates issuer and account when parsed: an
        // account holding ':' without an issuer keeps it behind an empty issuer.
        if !token.issuer.isEmpty || account.contains(":") { label = PercentEncoding.encode(token.issuer, keeping: "@") + ":" + label }
        var query = "secret=" + Base32.encode(token.secret)
        if !token.issuer.isEmpty { query += "&issuer=" + PercentEncoding.encode(token.issuer, keeping: "@") }
        switch token.kind {
        case .steam:
            query += "&digits=5&period=\(token.period)"
        case .totp:
            query += "&algorithm=\(token.algorithm.rawValue)&digits=\(token.digits)&period=\(token.period)"
        case .hotp:
            query += "&algorithm=\(token.algorithm.rawValue)&digits=\(token.digits)&counter=\(token.counter)"
        }
        let derived = OTPToken(issuer: token.issuer, account: account, secret: []).name
        if token.name != derived { query += "&name=" + PercentEncoding.encode(token.name) }
        return "\(prefix)\(token.kind.rawValue)/\(label)?\(query)"
    }
}

extension String {
    /// The string without leading and trailing whitespace and line breaks.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
