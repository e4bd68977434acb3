import CloudSyncCrypto

/// What kind of one-time password a token makes.
public enum OTPKind: String, Sendable, Hashable, CaseIterable {
    /// Time-based (RFC 6238).
    case totp
    /// Counter-based (RFC 4226).
    case hotp
    /// Steam Guard: TOTP-SHA1 over 30 s, shown as 5 characters of `23456789BCDFGHJKMNPQRTVWXY`.
    case steam

    /// True when codes follow the clock.
    public var isTimeBased: Bool { self != .hotp }
}

extension HashFunction {
    /// Parses an algorithm name as otpauth URIs and exports write it (`SHA1`, `sha-256`, `HmacSHA512`).
    public init(otpName: String) throws(OTPError) {
        var name = otpName.uppercased().filter { $0 != "-" && $0 != "_" }
        if name.hasPrefix("HMAC") { name.removeFirst(4) }
        switch name {
        case "SHA1": self = .sha1
        case "SHA256": self = .sha256
        case "SHA512": self = .sha512
        default: throw .invalidParameter("unknown algorithm '\(otpName)'; use SHA1, SHA256 or SHA512")
        }
    }
}
