import CloudSyncCore

/// JSON exports that carry each token as an otpauth URI:
/// - Bitwarden (password manager and Authenticator), unencrypted JSON: `{"encrypted": false,
///   "items": [{"name", "login": {"username", "totp"}}]}`, `totp` an otpauth URI, a `steam://`
///   secret or a bare base32 secret (then the item's name is the issuer, its username the account);
/// - Proton Authenticator: `{"version", "entries": [{"id", "content": {"uri", "entry_type",
///   "name"}, "note"}]}`, `uri` an otpauth URI or `steam://SECRET`.
public enum URIExportBackup {
    /// True when `json` has the shape of a Bitwarden JSON export.
    public static func looksLikeBitwarden(_ json: JSONValue) -> Bool {
        json["items"]?.arrayValue != nil && json["encrypted"] != nil
    }

    /// True when `json` has the shape of a Proton Authenticator export.
    public static func looksLikeProton(_ json: JSONValue) -> Bool {
        json["entries"]?.arrayValue != nil && json["version"] != nil
    }

    /// Reads a Bitwarden export: items without a `totp` are not tokens and are skipped.
    public static func readBitwarden(_ json: JSONValue) throws(OTPError) -> ImportContents {
        if json["encrypted"] == .bool(true) {
            throw .invalidFile("this Bitwarden export is encrypted; export it again as plain .json")
        }
        var contents = ImportContents(format: .bitwarden)
        for (index, item) in (json["items"]?.arrayValue ?? []).enumerated() {
            guard let totp = item["login"]?["totp"]?.stringValue, !totp.isEmpty else { continue }
            let name = item["name"]?.stringValue ?? ""
            let account = item["login"]?["username"]?.stringValue ?? ""
            add(totp, issuer: name, account: account, name: "",
                place: BackupEntry.place("item", index, issuer: name, account: account), to: &contents)
        }
        return contents
    }

    /// Reads a Proton Authenticator export.
    public static func readProton(_ json: JSONValue) throws(OTPError) -> ImportContents {
        var contents = ImportContents(format: .proton)
        for (index, entry) in (json["entries"]?.arrayValue ?? []).enumerated() {
            let content = entry["content"] ?? .object([])
            let name = content["name"]?.stringValue ?? ""
            let place = BackupEntry.place("entry", index, issuer: name, account: "")
            guard let uri = content["uri"]?.stringValue, !uri.isEmpty else {
                contents.problems.append(ImportProblem(entry: place, reason: "the entry has no uri"))
                continue
            }
            add(uri, issuer: name, account: "", name: name, place: place, to: &contents)
        }
        return contents
    }

    /// One token from an otpauth URI, a `steam://SECRET` or a bare secret.
    static func add(_ text: String, issuer: String, account: String, name: String, place: String,
                    to contents: inout ImportContents) {
        let trimmed = text.trimmingWhitespace()
        do throws(OTPError) {
            if OTPAuthURI.looksLikeURI(trimmed) {
                contents.tokens.append(try OTPAuthURI.parse(trimmed))
            } else {
                let steam = trimmed.lowercased().hasPrefix("steam://")
                let entry = BackupEntry(type: steam ? "STEAM" : "TOTP", secret: steam ? String(trimmed.dropFirst(8)) : trimmed,
                                        algorithm: nil, digits: nil, period: nil, counter: nil)
                contents.tokens.append(try entry.token(issuer: issuer, account: account, name: name, noun: "entry"))
            }
        } catch {
            contents.problems.append(ImportProblem(entry: place, reason: error.description))
        }
    }
}
