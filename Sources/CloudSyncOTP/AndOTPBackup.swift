import CloudSyncCore
import CloudSyncCrypto

/// An andOTP plain JSON backup: an array of `{"secret", "issuer", "label", "digits", "type",
/// "algorithm", "period" | "counter", "tags", …}`.
public enum AndOTPBackup {
    /// True when `json` has the shape of an andOTP backup.
    public static func looksLikeBackup(_ json: JSONValue) -> Bool {
        guard let items = json.arrayValue else { return false }
        return items.allSatisfy { $0["secret"] != nil && $0["type"] != nil }
    }

    /// Reads a plain backup.
    public static func read(_ json: JSONValue) throws(OTPError) -> ImportContents {
        guard let items = json.arrayValue else { throw .invalidFile("an andOTP backup is a JSON array") }
        var contents = ImportContents(format: .andOTP)
        for (index, item) in items.enumerated() {
            var issuer = item["issuer"]?.stringValue ?? ""
            var account = item["label"]?.stringValue ?? ""
            // Old andOTP versions kept `issuer:account` (or `issuer - account`) in the label.
            if issuer.isEmpty, let colon = account.firstIndex(of: ":") {
                issuer = String(account[..<colon]).trimmingWhitespace()
                account = String(account[account.index(after: colon)...]).trimmingWhitespace()
            }
            let place = "entry \(index + 1)" + (issuer.isEmpty && account.isEmpty ? "" : " (\([issuer, account].filter { !$0.isEmpty }.joined(separator: ":")))")
            do {
                let type = item["type"]?.stringValue ?? ""
                let kind: OTPKind
                switch type.uppercased() {
                case "TOTP": kind = .totp
                case "HOTP": kind = .hotp
                case "STEAM": kind = .steam
                default: throw OTPError.invalidParameter("type '\(type)' is not supported (TOTP, HOTP and STEAM are)")
                }
                let secret = try Base32.decode(item["secret"]?.stringValue ?? "")
                let algorithm = kind == .steam ? .sha1 : try HashFunction(otpName: item["algorithm"]?.stringValue ?? "SHA1")
                var counter: UInt64 = 0
                if kind == .hotp {
                    guard let n = item["counter"]?.int64Value, n >= 0 else { throw OTPError.invalidParameter("an HOTP entry needs a counter") }
                    counter = UInt64(n)
                }
                let token = OTPToken(issuer: issuer, account: account, secret: secret, kind: kind, algorithm: algorithm,
                                     digits: Int(item["digits"]?.int64Value ?? (kind == .steam ? 5 : 6)),
                                     period: Int(item["period"]?.int64Value ?? Int64(OTPToken.defaultPeriod)), counter: counter)
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
