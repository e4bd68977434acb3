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
            // The service name is the issuer, as Aegis reads it; otp.issuer only when it has none.
            let issuer = service["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? otp["issuer"]?.stringValue ?? ""
            let account = otp["account"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? otp["label"]?.stringValue ?? ""
            let place = BackupEntry.place("service", index, issuer: issuer, account: account)
            do throws(OTPError) {
                let entry = BackupEntry(type: otp["tokenType"]?.stringValue ?? "TOTP", secret: service["secret"]?.stringValue,
                                        algorithm: otp["algorithm"]?.stringValue, digits: otp["digits"]?.int64Value,
                                        period: otp["period"]?.int64Value, counter: otp["counter"]?.int64Value)
                let token = try entry.token(issuer: issuer, account: account, noun: "service", typeWord: "token type")
                contents.tokens.append(token)
            } catch {
                contents.problems.append(ImportProblem(entry: place, reason: error.description))
            }
        }
        return contents
    }
}
