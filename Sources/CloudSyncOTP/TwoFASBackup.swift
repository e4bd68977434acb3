import CloudSyncCore
import CloudSyncCrypto

/// A 2FAS Authenticator backup (`.2fas`): `{"services": [{"name", "secret", "otp": {"account",
/// "issuer", "digits", "period", "algorithm", "tokenType", "counter"}}], "schemaVersion": …}`.
/// Password-protected backups (`servicesEncrypted`) are refused with advice.
public enum TwoFASBackup {
    /// True when `json` has the shape of a 2FAS backup.
    public static func looksLikeBackup(_ json: JSONValue) -> Bool {
        json["schemaVersion"] != nil && (json["services"] != nil || json["servicesEncrypted"] != nil)
    }

    /// Reads a plain backup.
    public static func read(_ json: JSONValue) throws(OTPError) -> ImportContents {
        if let encrypted = json["servicesEncrypted"]?.stringValue, !encrypted.isEmpty {
            throw .invalidFile("this 2FAS backup is password-protected; export it again from 2FAS without a password")
        }
        guard let services = json["services"]?.arrayValue else { throw .invalidFile("the 2FAS backup has no services list") }
        var contents = ImportContents(format: .twoFAS)
        for (index, service) in services.enumerated() {
            let otp = service["otp"] ?? .object([])
            let issuer = otp["issuer"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? service["name"]?.stringValue ?? ""
            let account = otp["account"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? otp["label"]?.stringValue ?? ""
            let place = "service \(index + 1)" + (issuer.isEmpty && account.isEmpty ? "" : " (\([issuer, account].filter { !$0.isEmpty }.joined(separator: ":")))")
            do {
                let kind: OTPKind
                let type = otp["tokenType"]?.stringValue ?? "TOTP"
                switch type.uppercased() {
                case "TOTP": kind = .totp
                case "HOTP": kind = .hotp
                case "STEAM": kind = .steam
                default: throw OTPError.invalidParameter("token type '\(type)' is not supported (TOTP, HOTP and STEAM are)")
                }
                guard let secretText = service["secret"]?.stringValue else { throw OTPError.invalidParameter("the service has no secret") }
                let secret = try Base32.decode(secretText)
                let algorithm = kind == .steam ? .sha1 : try HashFunction(otpName: otp["algorithm"]?.stringValue ?? "SHA1")
                var counter: UInt64 = 0
                if kind == .hotp {
                    guard let n = otp["counter"]?.int64Value, n >= 0 else { throw OTPError.invalidParameter("an HOTP service needs a counter") }
                    counter = UInt64(n)
                }
                let token = OTPToken(issuer: issuer, account: account, secret: secret, kind: kind, algorithm: algorithm,
                                     digits: Int(otp["digits"]?.int64Value ?? (kind == .steam ? 5 : 6)),
                                     period: Int(otp["period"]?.int64Value ?? Int64(OTPToken.defaultPeriod)), counter: counter)
                try token.validate()
                contents.tokens.append(token)
            } catch let error as OTPError {
                contents.problems.append(ImportProblem(entry: place, reason: error.description))
            } catch {
                contents.problems.append(ImportProblem(entry: place, reason: "\(error)"))
            }
        }
        return contents
    }
}
