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
            let place = BackupEntry.place("entry", index, issuer: issuer, account: account)
            do throws(OTPError) {
                let entry = BackupEntry(type: item["type"]?.stringValue ?? "", secret: item["secret"]?.stringValue ?? "",
                                        algorithm: item["algorithm"]?.stringValue, digits: item["digits"]?.int64Value,
                                        period: item["period"]?.int64Value, counter: item["counter"]?.int64Value)
                let token = try entry.token(issuer: issuer, account: account, noun: "entry")
                contents.tokens.append(token)
            } catch {
                contents.problems.append(ImportProblem(entry: place, reason: error.description))
            }
        }
        return contents
    }
}
