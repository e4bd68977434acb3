import CloudSyncCore
import CloudSyncCrypto
import CloudSyncOTP
import Testing

/// Fixtures written from the published formats of Aegis, 2FAS and andOTP.
enum Fixtures {
    /// The entries of an Aegis database (format of Aegis' docs/vault.md): every kind, every
    /// hash, and two entries this tool cannot use (mOTP, and a secret that is not base32).
    static let aegisDB = """
        {"version": 3, "entries": [
          {"type": "totp", "uuid": "3ae6f1ad-2e65-4ed2-a953-1ec0dff2386d", "name": "alice@example.com", "issuer": "Deno",
           "note": "work laptop", "favorite": false, "icon": null, "groups": [],
           "info": {"secret": "4SJHB4GSD43FZBAI7C2HLRJGPQ", "algo": "SHA1", "digits": 6, "period": 30}},
          {"type": "totp", "uuid": "84b55971-a3d2-4173-a5bb-0aea113dbc17", "name": "james", "issuer": "SPDX", "icon": null,
           "info": {"secret": "5OM4WOOGPLQEF6UGN3CPEOOLWU", "algo": "SHA256", "digits": 7, "period": 20}},
          {"type": "hotp", "uuid": "0a8c0571-ff6f-4b02-aa4b-50553b4fb4fe", "name": "benjamin", "issuer": "Air Canada", "icon": null,
           "info": {"secret": "KUVJJOM753IHTNDSZVCNKL7GII", "algo": "SHA512", "digits": 8, "counter": 50}},
          {"type": "steam", "uuid": "5b11ae3b-6fc3-4d46-8ca7-cf0aea7de920", "name": "gaben", "issuer": "Steam", "icon": null,
           "info": {"secret": "JRZCL47CMXVOQMNPZR2F7J4RGI", "algo": "SHA1", "digits": 5, "period": 30}},
          {"type": "motp", "uuid": "7d6c2a8c-6d69-4b3e-9d3f-2f9b0c1d2e3f", "name": "old", "issuer": "Bank", "icon": null,
           "info": {"secret": "e3152afee62599c8", "pin": "1234", "algo": "MD5", "digits": 6, "period": 10}},
          {"type": "totp", "uuid": "9d6c2a8c-6d69-4b3e-9d3f-2f9b0c1d2e3f", "name": "broken", "issuer": "Typo", "icon": null,
           "info": {"secret": "NOT-BASE32-1890", "algo": "SHA1", "digits": 6, "period": 30}}
        ], "groups": []}
        """

    static let aegisPlain = #"{"version": 1, "header": {"slots": null, "params": null}, "db": "# + aegisDB + "}"

    /// An Aegis vault encrypted as Aegis does it: a random master key encrypts the database
    /// (AES-256-GCM); each password slot wraps the master key under scrypt(password, salt).
    static func aegisEncrypted(password: String, n: UInt64 = 1 << 14, extraSlots: Bool = true) throws -> String {
        let master = SecureRandom.bytes(32)
        let salt = SecureRandom.bytes(32), slotNonce = SecureRandom.bytes(12)
        let kek = try Scrypt(n: n, r: 8, p: 1).derive(password: Array(password.utf8), salt: salt, length: 32)
        let wrapped = try AESGCM.seal(master, key: kek, nonce: slotNonce)
        let dbNonce = SecureRandom.bytes(12)
        let sealed = try AESGCM.seal(Array(aegisDB.utf8), key: master, nonce: dbNonce)
        let slot = """
            {"type": 1, "uuid": "a8325752-c1be-458a-9b3e-5e0a8154d9ec", "key": "\(Hex.encode(Array(wrapped.prefix(32))))",
             "key_params": {"nonce": "\(Hex.encode(slotNonce))", "tag": "\(Hex.encode(Array(wrapped.suffix(16))))"},
             "n": \(n), "r": 8, "p": 1, "salt": "\(Hex.encode(salt))", "repaired": true, "is_backup": false}
            """
        // A biometric slot (type 2) that a password cannot open comes first, as on a phone.
        let biometric = """
            {"type": 2, "uuid": "b8325752-c1be-458a-9b3e-5e0a8154d9ec", "key": "\(Hex.encode(SecureRandom.bytes(32)))",
             "key_params": {"nonce": "\(Hex.encode(SecureRandom.bytes(12)))", "tag": "\(Hex.encode(SecureRandom.bytes(16)))"}}
            """
        return """
            {"version": 1, "header": {"slots": [\(extraSlots ? biometric + ", " : "")\(slot)],
              "params": {"nonce": "\(Hex.encode(dbNonce))", "tag": "\(Hex.encode(Array(sealed.suffix(16))))"}},
             "db": "\(Base64.encode(Array(sealed.dropLast(16))))"}
            """
    }

    /// A 2FAS backup (schemaVersion 4) without password.
    static let twoFAS = """
        {"services": [
          {"name": "GitHub", "secret": "JBSWY3DPEHPK3PXP", "updatedAt": 1700000000000,
           "otp": {"label": "alice", "account": "alice", "issuer": "GitHub", "digits": 6, "period": 30, "algorithm": "SHA1",
                   "tokenType": "TOTP", "source": "Manual"},
           "order": {"position": 0}, "icon": {"selected": "Label"}},
          {"name": "Corp VPN", "secret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
           "otp": {"account": "bob", "digits": 8, "algorithm": "SHA256", "tokenType": "HOTP", "counter": 12},
           "order": {"position": 1}},
          {"name": "Steam", "secret": "63BEDWCQZKTQWPESARIERL5DTTQFCJTK",
           "otp": {"account": "gaben", "issuer": "Steam", "tokenType": "STEAM", "digits": 5, "period": 30, "algorithm": "SHA1"}},
          {"name": "Broken", "secret": "ABC", "otp": {"account": "x", "tokenType": "TOTP"}}
        ], "groups": [], "updatedAt": 1700000000000, "schemaVersion": 4, "appVersionCode": 5000000,
         "appVersionName": "5.0.0", "appOrigin": "android"}
        """

    /// An andOTP plain backup.
    static let andOTP = """
        [{"secret": "JBSWY3DPEHPK3PXP", "issuer": "GitLab", "label": "carol", "digits": 6, "type": "TOTP", "algorithm": "SHA1",
          "thumbnail": "Default", "last_used": 1700000000000, "used_frequency": 3, "period": 30, "tags": ["work"]},
         {"secret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "issuer": "", "label": "Legacy:dave", "digits": 8, "type": "HOTP",
          "algorithm": "SHA512", "thumbnail": "Default", "counter": 3, "tags": []},
         {"secret": "63BEDWCQZKTQWPESARIERL5DTTQFCJTK", "issuer": "Steam", "label": "gaben", "digits": 5, "type": "STEAM",
          "algorithm": "SHA1", "period": 30, "tags": []},
         {"secret": "JBSWY3DPEHPK3PXQ", "issuer": "Weird", "label": "eve", "digits": 6, "type": "MOTP", "algorithm": "MD5"}]
        """
}

@Suite("Import formats")
struct ImportFormatTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func detection() throws {
        #expect(ImportReader.detect(bytes(Fixtures.aegisPlain)) == .aegis)
        #expect(ImportReader.detect(bytes(try Fixtures.aegisEncrypted(password: "pw"))) == .aegis)
        #expect(ImportReader.detect(bytes(Fixtures.twoFAS)) == .twoFAS)
        #expect(ImportReader.detect(bytes(Fixtures.andOTP)) == .andOTP)
        #expect(ImportReader.detect(bytes("\n otpauth://totp/x?secret=JBSWY3DPEHPK3PXP\n")) == .uris)
        #expect(ImportReader.detect(bytes(MigrationTests.uri([]))) == .uris)
        #expect(ImportReader.detect(bytes("{\"hello\": 1}")) == nil)
        #expect(ImportReader.detect([0x00, 0x01, 0xff, 0x10]) == nil)
        #expect(throws: OTPError.self) { try ImportReader.read(bytes("just some text")) }
    }

    func checkAegisEntries(_ contents: ImportContents) {
        #expect(contents.format == .aegis)
        #expect(contents.tokens.map(\.name) == ["Deno:alice@example.com", "SPDX:james", "Air Canada:benjamin", "Steam:gaben"])
        #expect(contents.tokens[0].note == "work laptop")
        #expect(contents.tokens[1].algorithm == .sha256 && contents.tokens[1].digits == 7 && contents.tokens[1].period == 20)
        #expect(contents.tokens[2].kind == .hotp && contents.tokens[2].counter == 50 && contents.tokens[2].algorithm == .sha512)
        #expect(contents.tokens[3].kind == .steam)
        #expect(contents.problems.map(\.description) == [
            "entry 5 (Bank:old): type 'motp' is not supported (totp, hotp and steam are)",
            "entry 6 (Typo:broken): the secret is not base32: '1' at position 12 (base32 uses A-Z and 2-7)",
        ])
    }

    @Test func aegisPlain() throws {
        checkAegisEntries(try ImportReader.read(bytes(Fixtures.aegisPlain)))
        #expect(!ImportReader.needsPassword(bytes(Fixtures.aegisPlain), format: .aegis))
    }

    @Test func aegisEncrypted() throws {
        let vault = bytes(try Fixtures.aegisEncrypted(password: "correct horse battery staple"))
        #expect(ImportReader.needsPassword(vault, format: .aegis))
        checkAegisEntries(try ImportReader.read(vault, password: "correct horse battery staple"))
        #expect(throws: OTPError.decryptionFailed("wrong password for the Aegis vault: no password slot opens with it")) {
            try ImportReader.read(vault, password: "Correct horse battery staple")
        }
        #expect(throws: OTPError.decryptionFailed("the Aegis vault is encrypted: a password is needed")) {
            try ImportReader.read(vault)
        }
    }

    @Test func aegisDamagedOrHostile() throws {
        // A flipped bit in the database: the right password, but it does not authenticate.
        var json = try JSONValue.parse(try Fixtures.aegisEncrypted(password: "pw", extraSlots: false))
        guard case .object(var pairs) = json, let index = pairs.firstIndex(where: { $0.0 == "db" }),
              var body = pairs[index].1.stringValue.flatMap(Base64.decode) else { Issue.record("fixture"); return }
        body[3] ^= 1
        pairs[index].1 = .string(Base64.encode(body))
        json = .object(pairs)
        #expect(throws: OTPError.decryptionFailed("the Aegis vault's database does not decrypt: the file is damaged")) {
            try ImportReader.read(Array(json.serialized().utf8), password: "pw")
        }
        // A slot asking for absurd scrypt memory is refused before any work.
        let greedy = try Fixtures.aegisEncrypted(password: "pw", n: 1 << 14, extraSlots: false)
            .replacingFirst("\"n\": 16384", with: "\"n\": 1073741824")
        #expect(throws: OTPError.self) { try ImportReader.read(bytes(greedy), password: "pw") }
        #expect(throws: OTPError.self) { try ImportReader.read(bytes("{\"version\": 1, \"header\": {}, \"db\": {}}")) }
        #expect(throws: OTPError.self) { try ImportReader.read(bytes(Fixtures.aegisPlain.replacingFirst("\"version\": 1", with: "\"version\": 9"))) }
    }

    @Test func aegisExportRoundTrip() throws {
        let original = try ImportReader.read(bytes(Fixtures.aegisPlain)).tokens
            + [OTPToken(name: "just a name", secret: Array("12345678901234567890".utf8))]
        var renamed = original
        renamed[0].name = "my deno"
        let exported = AegisVault.export(renamed).prettyPrinted()
        let back = try ImportReader.read(bytes(exported))
        #expect(back.problems.isEmpty)
        #expect(back.tokens == renamed)
        #expect(exported.contains("\"cloudsync_name\": \"my deno\""))
    }

    @Test func twoFAS() throws {
        let contents = try ImportReader.read(bytes(Fixtures.twoFAS))
        #expect(contents.format == .twoFAS)
        #expect(contents.tokens.map(\.name) == ["GitHub:alice", "Corp VPN:bob", "Steam:gaben"])
        #expect(contents.tokens[1].kind == .hotp && contents.tokens[1].counter == 12 && contents.tokens[1].algorithm == .sha256
                && contents.tokens[1].digits == 8)
        #expect(contents.tokens[2].kind == .steam)
        #expect(contents.problems.count == 1 && contents.problems[0].entry == "service 4 (Broken:x)")
        let encrypted = #"{"servicesEncrypted": "abc:def:ghi", "schemaVersion": 4, "appVersionCode": 5000000}"#
        #expect(throws: OTPError.invalidFile("this 2FAS backup is password-protected; export it again from 2FAS without a password")) {
            try ImportReader.read(bytes(encrypted))
        }
    }

    @Test func andOTP() throws {
        let contents = try ImportReader.read(bytes(Fixtures.andOTP))
        #expect(contents.format == .andOTP)
        #expect(contents.tokens.map(\.name) == ["GitLab:carol", "Legacy:dave", "Steam:gaben"])
        #expect(contents.tokens[1].kind == .hotp && contents.tokens[1].counter == 3 && contents.tokens[1].algorithm == .sha512)
        #expect(contents.problems.map(\.description) == ["entry 4 (Weird:eve): type 'MOTP' is not supported (TOTP, HOTP and STEAM are)"])
    }

    @Test func uriListsReportEachBrokenLine() {
        let text = """
            # my tokens
            otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub

            otpauth://totp/GitHub:bob?secret=JBSWY3DPEHPK3PXP&issuer=Gitlab
            otpauth://hotp/VPN?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ
            hello
            otpauth://totp/Ok?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8
            """
        let contents = URIListImport.read(text)
        #expect(contents.tokens.map(\.name) == ["GitHub:alice", "Ok"])
        #expect(contents.problems.map(\.entry) == ["line 4", "line 5", "line 6"])
        #expect(contents.problems[1].reason == "an HOTP URI needs a counter parameter")
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
