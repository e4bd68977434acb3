import CloudSyncCore
import CloudSyncCrypto

/// Aegis Authenticator's vault export: `{"version": 1, "header": {"slots", "params"}, "db": …}`.
/// Plain, `db` is the database object; encrypted, `db` is base64 AES-256-GCM ciphertext under a
/// random master key, which each password slot (type 1) holds wrapped by a key derived from
/// the password with scrypt (`n`, `r`, `p`, `salt`), with `key_params` nonce and tag.
public enum AegisVault {
    /// True when the vault is password-encrypted.
    public static func isEncrypted(_ json: JSONValue) -> Bool {
        if case .array? = json["header"]?["slots"] { return true }
        return json["db"]?.stringValue != nil
    }

    /// True when `json` has the shape of an Aegis export.
    public static func looksLikeVault(_ json: JSONValue) -> Bool {
        json["header"] != nil && json["db"] != nil
    }

    /// Reads a vault; `password` is needed only for an encrypted one.
    public static func read(_ json: JSONValue, password: String?) throws(OTPError) -> ImportContents {
        guard looksLikeVault(json) else { throw .invalidFile("not an Aegis vault: no header and db") }
        if let version = json["version"]?.int64Value, version != 1 {
            throw .invalidFile("Aegis vault version \(version) is not supported (version 1 is)")
        }
        let db: JSONValue
        if isEncrypted(json) {
            guard let password else { throw .decryptionFailed("the Aegis vault is encrypted: a password is needed") }
            db = try decrypt(json, password: password)
        } else {
            db = json["db"] ?? .null
        }
        guard let entries = db["entries"]?.arrayValue else { throw .invalidFile("the Aegis vault has no entries list") }
        var contents = ImportContents(format: .aegis)
        for (index, entry) in entries.enumerated() {
            do {
                contents.tokens.append(try token(entry))
            } catch {
                let place = BackupEntry.place("entry", index, issuer: entry["issuer"]?.stringValue ?? "",
                                              account: entry["name"]?.stringValue ?? "")
                contents.problems.append(ImportProblem(entry: place, reason: error.description))
            }
        }
        return contents
    }

    static func token(_ entry: JSONValue) throws(OTPError) -> OTPToken {
        let info = entry["info"]
        let fields = BackupEntry(type: entry["type"]?.stringValue ?? "", secret: info?["secret"]?.stringValue,
                                 algorithm: info?["algo"]?.stringValue, digits: info?["digits"]?.int64Value,
                                 period: info?["period"]?.int64Value, counter: info?["counter"]?.int64Value)
        return try fields.token(issuer: entry["issuer"]?.stringValue ?? "", account: entry["name"]?.stringValue ?? "",
                                name: entry["cloudsync_name"]?.stringValue ?? "", note: entry["note"]?.stringValue ?? "",
                                noun: "entry", supported: "totp, hotp and steam")
    }

    /// The most memory a password slot's scrypt may take: 128·r·N bytes, at most 256 MiB (Aegis
    /// writes N = 2^15, r = 8: 32 MiB). A slot asking for more is refused before any key is
    /// derived: a hostile file must not make an import take gigabytes.
    static let maximumScryptMemory = UInt64(256) << 20
    /// The most work a password slot's scrypt may ask for, as N·r·p: 2^22, 16 times what Aegis
    /// writes (2^15·8·1), about a second here (N = 2^16, p = 2 is a quarter of it), so a
    /// hostile file cannot make an import take a minute either.
    static let maximumScryptWork = UInt64(1) << 22
    /// The most password slots read: Aegis writes one, or two with a separate backup password.
    static let maximumPasswordSlots = 2
    /// The most slots of any type (password, biometric, raw) a vault may list.
    static let maximumSlots = 16

    /// One password slot, checked: its scrypt parameters within the bounds of memory and work
    /// (`maximumScryptMemory`, `maximumScryptWork`), and every part present.
    struct PasswordSlot {
        var scrypt: Scrypt
        var salt: [UInt8]
        var wrappedKey: [UInt8]
        var nonce: [UInt8]
        var tag: [UInt8]

        init(_ slot: JSONValue) throws(OTPError) {
            guard let n = slot["n"]?.int64Value, let r = slot["r"]?.int64Value, let p = slot["p"]?.int64Value,
                  let salt = slot["salt"]?.stringValue.flatMap(HexText.decode),
                  let wrapped = slot["key"]?.stringValue.flatMap(HexText.decode),
                  let nonce = slot["key_params"]?["nonce"]?.stringValue.flatMap(HexText.decode),
                  let tag = slot["key_params"]?["tag"]?.stringValue.flatMap(HexText.decode) else {
                throw .invalidFile("a password slot of the Aegis vault is incomplete")
            }
            // Each factor is bounded first, so the products below cannot overflow.
            guard n > 1, n & (n - 1) == 0, n <= 1 << 30, (1...1024).contains(r), (1...1 << 16).contains(p),
                  128 * UInt64(r) * UInt64(n) <= AegisVault.maximumScryptMemory,
                  UInt64(n) * UInt64(r) * UInt64(p) <= AegisVault.maximumScryptWork else {
                throw .invalidFile("a password slot asks for scrypt N=\(n), r=\(r), p=\(p); at most \(AegisVault.maximumScryptMemory >> 20) MiB (128·r·N bytes) and N·r·p ≤ 2^22 are accepted (Aegis writes N=32768, r=8, p=1)")
            }
            guard (1...64).contains(salt.count), wrapped.count == 32, nonce.count == 12, tag.count == 16 else {
                throw .invalidFile("a password slot of the Aegis vault has a salt, key, nonce or tag of the wrong size")
            }
            self.scrypt = Scrypt(n: UInt64(n), r: UInt64(r), p: UInt64(p))
            self.salt = salt
            self.wrappedKey = wrapped
            self.nonce = nonce
            self.tag = tag
        }
    }

    static func decrypt(_ json: JSONValue, password: String) throws(OTPError) -> JSONValue {
        guard let slots = json["header"]?["slots"]?.arrayValue else { throw .invalidFile("the encrypted Aegis vault has no key slots") }
        guard slots.count <= maximumSlots else {
            throw .invalidFile("the Aegis vault lists \(slots.count) key slots; at most \(maximumSlots) are read")
        }
        let passwordSlots = slots.filter { $0["type"]?.int64Value == 1 }
        guard !passwordSlots.isEmpty else { throw .invalidFile("the Aegis vault has no password slot (only biometric or raw slots)") }
        guard passwordSlots.count <= maximumPasswordSlots else {
            throw .invalidFile("the Aegis vault has \(passwordSlots.count) password slots; Aegis writes at most \(maximumPasswordSlots)")
        }
        // Every slot is checked before the first (costly) key derivation.
        var checked: [PasswordSlot] = []
        for slot in passwordSlots { checked.append(try PasswordSlot(slot)) }
        var masterKey: [UInt8]?
        for slot in checked {
            let kek: [UInt8]
            do {
                kek = try slot.scrypt.derive(password: Array(password.utf8), salt: slot.salt, length: 32)
            } catch {
                throw .invalidFile("a password slot of the Aegis vault has unusable scrypt parameters: \(error)")
            }
            if let key = try? AESGCM.open(slot.wrappedKey + slot.tag, key: kek, nonce: slot.nonce), key.count == 32 {
                masterKey = key
                break
            }
        }
        guard let masterKey else { throw .decryptionFailed("wrong password for the Aegis vault: no password slot opens with it") }
        guard let body = json["db"]?.stringValue.flatMap({ Base64.decode($0) }),
              let nonce = json["header"]?["params"]?["nonce"]?.stringValue.flatMap(HexText.decode),
              let tag = json["header"]?["params"]?["tag"]?.stringValue.flatMap(HexText.decode) else {
            throw .invalidFile("the encrypted Aegis vault lacks its database or its nonce and tag")
        }
        let plaintext: [UInt8]
        do {
            plaintext = try AESGCM.open(body + tag, key: masterKey, nonce: nonce)
        } catch {
            throw .decryptionFailed("the Aegis vault's database does not decrypt: the file is damaged")
        }
        do {
            return try JSONValue.parse(bytes: plaintext)
        } catch {
            throw .invalidFile("the decrypted Aegis database is not JSON: \(error)")
        }
    }

    /// A plain (unencrypted) Aegis export of `tokens`: what Aegis imports, and what `read`
    /// gives back as the same tokens. A name other than the label is kept in `cloudsync_name`.
    public static func export(_ tokens: [OTPToken]) -> JSONValue {
        let entries: [JSONValue] = tokens.map { token in
            let account = token.account.isEmpty && token.issuer.isEmpty ? token.name : token.account
            var info: [(String, JSONValue)] = [("secret", .string(Base32.encode(token.secret))),
                                               ("algo", .string(token.algorithm.rawValue)), ("digits", .int(Int64(token.digits)))]
            if token.kind == .hotp {
                info.append(("counter", .int(Int64(token.counter))))
            } else {
                info.append(("period", .int(Int64(token.period))))
            }
            var entry: [(String, JSONValue)] = [
                ("type", .string(token.kind.rawValue)), ("uuid", .string(randomUUID())), ("name", .string(account)),
                ("issuer", .string(token.issuer)), ("note", .string(token.note)), ("favorite", .bool(false)), ("icon", .null),
                ("info", .object(info)), ("groups", .array([])),
            ]
            if token.name != OTPToken(issuer: token.issuer, account: account, secret: []).name {
                entry.append(("cloudsync_name", .string(token.name)))
            }
            return .object(entry)
        }
        return .object([
            ("version", .int(1)),
            ("header", .object([("slots", .null), ("params", .null)])),
            ("db", .object([("version", .int(3)), ("entries", .array(entries)), ("groups", .array([]))])),
        ])
    }

    /// A random version 4 UUID, lowercase.
    static func randomUUID() -> String {
        var bytes = SecureRandom.bytes(16)
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = Hex.encode(bytes)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }
}

/// Hex decoding (either case) for the fields of key slots.
enum HexText {
    static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = PercentEncoding.hexValue(digits[index]), let low = PercentEncoding.hexValue(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
