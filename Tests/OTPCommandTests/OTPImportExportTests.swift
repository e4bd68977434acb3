import CloudSyncCore
import CloudSyncCrypto
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("otp import and export (end to end)")
struct OTPImportExportTests {
    let home = TemporaryDirectory("otp-import")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }

    static let aegisDB = """
        {"version": 3, "groups": [], "entries": [
          {"type": "totp", "uuid": "3ae6f1ad-2e65-4ed2-a953-1ec0dff2386d", "name": "alice", "issuer": "Deno", "note": "", "icon": null,
           "info": {"secret": "4SJHB4GSD43FZBAI7C2HLRJGPQ", "algo": "SHA1", "digits": 6, "period": 30}, "groups": []},
          {"type": "hotp", "uuid": "0a8c0571-ff6f-4b02-aa4b-50553b4fb4fe", "name": "benjamin", "issuer": "Air Canada", "icon": null,
           "info": {"secret": "KUVJJOM753IHTNDSZVCNKL7GII", "algo": "SHA256", "digits": 7, "counter": 50}},
          {"type": "steam", "uuid": "5b11ae3b-6fc3-4d46-8ca7-cf0aea7de920", "name": "gaben", "issuer": "Steam", "icon": null,
           "info": {"secret": "63BEDWCQZKTQWPESARIERL5DTTQFCJTK", "algo": "SHA1", "digits": 5, "period": 30}},
          {"type": "yandex", "uuid": "7d6c2a8c-6d69-4b3e-9d3f-2f9b0c1d2e3f", "name": "ya", "issuer": "Yandex", "icon": null,
           "info": {"secret": "JBSWY3DPEHPK3PXPJBSWY3DP", "pin": "1234", "algo": "SHA256", "digits": 8, "period": 30}}
        ]}
        """

    /// An encrypted Aegis vault made as Aegis makes one (scrypt-wrapped master key, AES-256-GCM).
    static func encryptedVault(password: String) throws -> String {
        let master = SecureRandom.bytes(32), salt = SecureRandom.bytes(32), slotNonce = SecureRandom.bytes(12)
        let kek = try Scrypt(n: 1 << 15, r: 8, p: 1).derive(password: Array(password.utf8), salt: salt, length: 32)
        let wrapped = try AESGCM.seal(master, key: kek, nonce: slotNonce)
        let nonce = SecureRandom.bytes(12)
        let sealed = try AESGCM.seal(Array(aegisDB.utf8), key: master, nonce: nonce)
        return """
            {"version": 1, "header": {"slots": [{"type": 1, "uuid": "a8325752-c1be-458a-9b3e-5e0a8154d9ec",
              "key": "\(Hex.encode(Array(wrapped.prefix(32))))",
              "key_params": {"nonce": "\(Hex.encode(slotNonce))", "tag": "\(Hex.encode(Array(wrapped.suffix(16))))"},
              "n": 32768, "r": 8, "p": 1, "salt": "\(Hex.encode(salt))", "repaired": true}],
              "params": {"nonce": "\(Hex.encode(nonce))", "tag": "\(Hex.encode(Array(sealed.suffix(16))))"}},
             "db": "\(Base64.encode(Array(sealed.dropLast(16))))"}
            """
    }

    @Test func encryptedAegisVault() throws {
        let vault = home.write("aegis.json", try Self.encryptedVault(password: "hunter2 but longer"))
        home.write("wrong.txt", "hunter3 but longer\n", mode: 0o600)
        home.write("right.txt", "hunter2 but longer\n", mode: 0o600)
        #expect(cli.exec(["otp", "add", "keep"], stdin: rfcSecret).status == 0)
        let noPassword = cli.exec(["otp", "import", vault])
        #expect(noPassword.status == 64 && noPassword.stderr.contains("--password-file"))
        let wrong = cli.exec(["otp", "import", vault, "--password-file", home.file("wrong.txt")])
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("wrong password for the Aegis vault"))
        #expect(try cli.tokenNames("laptop") == ["keep"], "nothing stored is touched")
        let right = cli.exec(["otp", "import", vault, "--password-file", home.file("right.txt")])
        #expect(right.status == 65, "the yandex entry is broken: \(right.stderr)")
        #expect(right.stderr.contains("entry 4 (Yandex:ya): type 'yandex' is not supported"))
        #expect(right.out == "imported 3 tokens from the Aegis vault; 1 broken entry not imported")
        #expect(try cli.tokenNames("laptop") == ["Air Canada:benjamin", "Deno:alice", "keep", "Steam:gaben"])
        #expect(cli.code("steam", at: 1_511_200_714, device: "laptop") == "9P3VP")
        // The password may also come from the environment; a second import only finds duplicates.
        let again = cli.exec(["otp", "import", vault, "--json"], env: ["CLOUDSYNC_IMPORT_PASSWORD": "hunter2 but longer"])
        let report = try again.json()
        #expect(report["imported"] == .array([]))
        #expect(report["duplicates"]?.arrayValue?.count == 3)
        #expect(report["problems"]?.arrayValue?.count == 1)
    }

    @Test func everyFormatWithBrokenAndDuplicateEntries() throws {
        let twoFAS = home.write("backup.2fas", """
            {"services": [
              {"name": "GitHub", "secret": "JBSWY3DPEHPK3PXP", "otp": {"account": "alice", "issuer": "GitHub", "digits": 6,
               "period": 30, "algorithm": "SHA1", "tokenType": "TOTP"}, "order": {"position": 0}},
              {"name": "Bad", "secret": "JBSWY3DP", "otp": {"account": "short", "tokenType": "TOTP"}}],
             "groups": [], "schemaVersion": 4, "appVersionCode": 5000000, "appOrigin": "android"}
            """)
        let andOTP = home.write("andotp.json", """
            [{"secret": "JBSWY3DPEHPK3PXP", "issuer": "GitHub", "label": "alice", "digits": 6, "type": "TOTP", "algorithm": "SHA1",
              "period": 30, "tags": []},
             {"secret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "issuer": "VPN", "label": "corp", "digits": 6, "type": "HOTP",
              "algorithm": "SHA1", "counter": 1, "tags": []}]
            """)
        let r1 = cli.exec(["otp", "import", twoFAS])
        #expect(r1.status == 65)
        #expect(r1.stderr.contains("service 2 (Bad:short): the secret is too short"))
        #expect(r1.out == "imported 1 token from the 2FAS backup; 1 broken entry not imported")
        let r2 = cli.exec(["otp", "import", andOTP])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(r2.out == "imported 1 token from the andOTP backup; 1 duplicate skipped")
        #expect(r2.stderr.contains("skipped 'GitHub:alice': the same token is stored as 'GitHub:alice'"))
        #expect(cli.exec(["otp", "code", "vpn", "-q"]).out == "287082", "andOTP's counter is the next one to use")
        // URIs on stdin, with a bad line; a name that is taken gets a suffix.
        let uris = """
            otpauth://totp/GitHub:alice?secret=KRUGS4ZANFZSAYJAONSWG4TFOQ&issuer=GitHub
            otpauth://totp/Broken?secret=JBSWY3DPEHPK3PXP&digits=10
            not a uri
            """
        let r3 = cli.exec(["otp", "import", "-"], stdin: uris)
        #expect(r3.status == 65)
        #expect(r3.stderr.contains("line 2: digits must be 6 to 8, got 10") && r3.stderr.contains("line 3: not an otpauth"))
        #expect(try cli.tokenNames("laptop") == ["GitHub:alice", "GitHub:alice (2)", "VPN:corp"])
        // A dry run stores nothing.
        let dry = cli.exec(["otp", "import", andOTP, "--dry-run", "--format", "andotp"], device: "tablet")
        #expect(dry.out == "would import 2 tokens from the andOTP backup")
        #expect(try cli.tokenNames("tablet").isEmpty)
    }

    @Test func unreadableFilesChangeNothing() throws {
        #expect(cli.exec(["otp", "add", "keep"], stdin: rfcSecret).status == 0)
        let cases: [(String, String)] = [
            ("garbage.bin", "\u{01}\u{02}binary junk"),
            ("notjson.json", "{\"header\": {\"slots\": null}, \"db\": "),
            ("nodb.json", "{\"version\": 1, \"header\": {\"slots\": null, \"params\": null}, \"db\": {\"version\": 3}}"),
            ("enc2fas.2fas", "{\"servicesEncrypted\": \"x:y:z\", \"schemaVersion\": 4}"),
        ]
        for (name, text) in cases {
            let result = cli.exec(["otp", "import", home.write(name, text)])
            #expect(result.status == 65, "\(name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        #expect(cli.exec(["otp", "import", home.file("missing.json")]).status == 65)
        #expect(cli.exec(["otp", "import", "x.json", "--format", "keepass"]).status == 64)
        #expect(try cli.tokenNames("laptop") == ["keep"])
    }

    @Test func googleAuthenticatorTransferFromStdin() throws {
        // One OtpParameters (secret, name, issuer, SHA1, six digits, TOTP) and a negative batch_id.
        var entry: [UInt8] = [0x0a, 20] + Array("12345678901234567890".utf8)
        entry += [0x12, 5] + Array("alice".utf8) + [0x1a, 6] + Array("Google".utf8) + [0x20, 1, 0x28, 1, 0x30, 2]
        var payload: [UInt8] = [0x0a, UInt8(entry.count)] + entry + [0x10, 1, 0x18, 1, 0x20, 0]
        payload += [0x28] + [0xd6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]  // batch_id -42
        let uri = "otpauth-migration://offline?data=" + Base64.encode(payload).replacingPlus()
        let result = cli.exec(["otp", "import", "-"], stdin: uri + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.tokenNames("laptop") == ["Google:alice"])
        #expect(cli.code("google", at: 59, device: "laptop") == "287082")
    }

    @Test func exportsRoundTrip() throws {
        let setup = """
            otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub
            otpauth://totp/ACME%20Co:bob%40example.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA512&digits=8
            otpauth://hotp/VPN:corp?secret=\(rfcSecret)&issuer=VPN&counter=9
            otpauth://steam/Steam:gaben?secret=63BEDWCQZKTQWPESARIERL5DTTQFCJTK&issuer=Steam
            """
        #expect(cli.exec(["otp", "import", "-"], stdin: setup).status == 0)
        #expect(cli.exec(["otp", "rename", "gaben", "my steam"]).status == 0)
        let original = try cli.exec(["otp", "list", "--json"]).json()["tokens"]?.arrayValue?.map(Self.withoutRecordName)

        let uriFile = home.file("export.txt")
        #expect(cli.exec(["otp", "export", "-o", uriFile]).status == 0)
        var info = stat()
        #expect(stat(uriFile, &info) == 0 && info.st_mode & 0o777 == 0o600, "the export holds secrets")
        #expect(cli.exec(["otp", "import", uriFile], device: "phone").status == 0)
        #expect(try cli.exec(["otp", "list", "--json"], device: "phone").json()["tokens"]?.arrayValue?.map(Self.withoutRecordName) == original)

        let aegis = cli.exec(["otp", "export", "--format", "aegis"])
        #expect(aegis.status == 0)
        #expect(cli.exec(["otp", "import", home.write("aegis.json", aegis.stdout)], device: "tablet").status == 0)
        #expect(try cli.exec(["otp", "list", "--json"], device: "tablet").json()["tokens"]?.arrayValue?.map(Self.withoutRecordName) == original)
        for device in ["laptop", "phone", "tablet"] {
            #expect(cli.code("acme", at: 2_000_000_000, device: device) == cli.code("acme", at: 2_000_000_000, device: "laptop"))
            #expect(cli.code("my steam", at: 1_511_200_518, device: device) == "FR8RV")
        }
        // Google's format: the Steam token does not fit and is left out, with a warning.
        let migration = cli.exec(["otp", "export", "--format", "migration"])
        #expect(migration.stderr.contains("'my steam' does not fit Google's format"))
        #expect(cli.exec(["otp", "import", "-"], device: "watch", stdin: migration.stdout).status == 0)
        #expect(try cli.tokenNames("watch") == ["ACME Co:bob@example.com", "GitHub:alice", "VPN:corp"])
        // Only what the queries name.
        #expect(cli.exec(["otp", "export", "github"]).out == "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&algorithm=SHA1&digits=6&period=30")
    }

    static func withoutRecordName(_ value: JSONValue) -> JSONValue {
        guard case .object(let pairs) = value else { return value }
        return .object(pairs.filter { $0.0 != "recordName" })
    }
}

extension String {
    /// Base64's '+' and '/' %-escaped for a URI query.
    func replacingPlus() -> String {
        var out = ""
        for c in self {
            switch c {
            case "+": out += "%2B"
            case "/": out += "%2F"
            case "=": out += "%3D"
            default: out.append(c)
            }
        }
        return out
    }
}
