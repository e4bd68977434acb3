import CloudSyncCore
import CloudSyncCrypto

/// The OTP parameters one entry of an authenticator backup (Aegis, andOTP, 2FAS) gives, as
/// the file spells them, turned into a checked token the same way for every format: Steam
/// forces SHA-1 and defaults to 5 digits, HOTP needs a counter, missing values take the
/// otpauth defaults.
struct BackupEntry {
    /// The token type as the file names it (`TOTP`, `hotp`, `Steam`…), any case.
    var type: String
    /// The base32 secret, or nil when the entry has none.
    var secret: String?
    var algorithm: String?
    var digits: Int64?
    var period: Int64?
    var counter: Int64?

    /// The kind `type` names, or nil.
    var kind: OTPKind? {
        switch type.lowercased() {
        case "totp": .totp
        case "hotp": .hotp
        case "steam": .steam
        default: nil
        }
    }

    /// The checked token. `noun` names the entry in errors ("entry", "service"); `supported`
    /// is the list of types in the format's own spelling.
    func token(issuer: String, account: String, name: String = "", note: String = "", noun: String,
               typeWord: String = "type", supported: String = "TOTP, HOTP and STEAM") throws(OTPError) -> OTPToken {
        guard let kind else { throw .invalidParameter("\(typeWord) '\(type)' is not supported (\(supported) are)") }
        guard let secret else { throw .invalidParameter("the \(noun) has no secret") }
        let key = try Base32.decode(secret)
        let hash = kind == .steam ? .sha1 : try HashFunction(otpName: algorithm ?? "SHA1")
        var count: UInt64 = 0
        if kind == .hotp {
            guard let counter, counter >= 0 else { throw .invalidParameter("an HOTP \(noun) needs a counter") }
            count = UInt64(counter)
        }
        let token = OTPToken(name: name, issuer: issuer, account: account, secret: key, kind: kind, algorithm: hash,
                             digits: Int(digits ?? (kind == .steam ? 5 : 6)), period: Int(period ?? Int64(OTPToken.defaultPeriod)),
                             counter: count, note: note)
        try token.validate()
        return token
    }

    /// How an import problem names the entry: `entry 4 (Issuer:account)`.
    static func place(_ noun: String, _ index: Int, issuer: String, account: String) -> String {
        let label = [issuer, account].filter { !$0.isEmpty }.joined(separator: ":")
        return "\(noun) \(index + 1)" + (label.isEmpty ? "" : " (\(label))")
    }
}
