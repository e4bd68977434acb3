import CloudSyncCrypto

/// The one-time password algorithms: HOTP (RFC 4226), TOTP (RFC 6238) and Steam Guard.
public enum OTPGenerator {
    /// The Steam Guard alphabet (no vowels, no look-alikes).
    public static let steamAlphabet = Array("23456789BCDFGHJKMNPQRTVWXY")

    /// RFC 4226 §5.3 dynamic truncation: 31 bits of the MAC at the offset its last nibble names.
    public static func truncate(_ mac: [UInt8]) -> UInt32 {
        let offset = Int(mac[mac.count - 1] & 0x0f)
        return (UInt32(mac[offset]) & 0x7f) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8
            | UInt32(mac[offset + 3])
    }

    /// The MAC of the 8-byte big-endian moving factor.
    static func mac(secret: [UInt8], counter: UInt64, algorithm: HashFunction) -> [UInt8] {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> UInt64(56 - 8 * $0)) }
        return HMAC.authenticate(message, key: secret, hash: algorithm)
    }

    /// An HOTP value of `digits` decimal digits (zero-padded). Total: the truncated value has
    /// 31 bits, so the width is taken as 0 to 10 digits (callers validate 6 to 8 first).
    public static func hotp(secret: [UInt8], counter: UInt64, digits: Int, algorithm: HashFunction = .sha1) -> String {
        let width = min(max(digits, 0), 10)
        var modulus: UInt64 = 1
        for _ in 0..<width { modulus *= 10 }
        let value = UInt64(truncate(mac(secret: secret, counter: counter, algorithm: algorithm))) % modulus
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// A Steam Guard code: the truncated HMAC-SHA1 written as 5 symbols of the Steam alphabet,
    /// least significant first.
    public static func steam(secret: [UInt8], counter: UInt64) -> String {
        var value = truncate(mac(secret: secret, counter: counter, algorithm: .sha1))
        var out = ""
        for _ in 0..<5 {
            out.append(steamAlphabet[Int(value % UInt32(steamAlphabet.count))])
            value /= UInt32(steamAlphabet.count)
        }
        return out
    }

    /// The TOTP time step T = floor((time - T0) / X) with T0 = 0, as a 64-bit count (so codes
    /// keep working after 2038). Nil for times before the epoch and periods below one second.
    public static func timeStep(unixSeconds: Int64, period: Int) -> UInt64? {
        guard unixSeconds >= 0, period > 0 else { return nil }
        return UInt64(unixSeconds / Int64(period))
    }
}
