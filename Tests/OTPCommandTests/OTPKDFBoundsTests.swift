import CloudSyncCore
import TestSupport
import Testing

/// Issue 30 item 15: an Aegis vault's scrypt is bounded by memory and work, not by Aegis's
/// exact defaults (a vault made by Python's `cryptography` with N=2^16, p=2 opens; hostile
/// parameters are still refused before any key is derived), and an HOTP counter that could make
/// no code is refused at `otp add`, while the codes at the top of the range equal oathtool's.
@Suite("otp KDF bounds and HOTP counter range (end to end)")
struct OTPKDFBoundsTests {
    let home = TemporaryDirectory("otp-kdf")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }

    static let database = """
        {"version": 3, "groups": [], "entries": [
          {"type": "totp", "uuid": "3ae6f1ad-2e65-4ed2-a953-1ec0dff2386d", "name": "alice", "issuer": "Deno", "note": "", "icon": null,
           "info": {"secret": "4SJHB4GSD43FZBAI7C2HLRJGPQ", "algo": "SHA1", "digits": 6, "period": 30}, "groups": []}]}
        """

    /// An encrypted Aegis vault made by Python's `cryptography` (scrypt and AES-GCM), not by our
    /// own code, with the given scrypt parameters.
    func pythonVault(n: Int, r: Int, p: Int, password: String) throws -> String {
        let program = """
            import base64, json, os, sys
            from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM
            n, r, p = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
            password, db = sys.argv[4].encode(), sys.stdin.read().encode()
            master, salt, slot_nonce, db_nonce = os.urandom(32), os.urandom(32), os.urandom(12), os.urandom(12)
            kek = Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(password)
            wrapped = AESGCM(kek).encrypt(slot_nonce, master, None)
            sealed = AESGCM(master).encrypt(db_nonce, db, None)
            print(json.dumps({"version": 1, "header": {"slots": [{"type": 1, "uuid": "a8325752-c1be-458a-9b3e-5e0a8154d9ec",
                "key": wrapped[:32].hex(), "key_params": {"nonce": slot_nonce.hex(), "tag": wrapped[32:].hex()},
                "n": n, "r": r, "p": p, "salt": salt.hex(), "repaired": True}],
                "params": {"nonce": db_nonce.hex(), "tag": sealed[-16:].hex()}},
                "db": base64.b64encode(sealed[:-16]).decode()}))
            """
        let result = ProcessSpawner.run("/usr/bin/python3", ["-c", program, "\(n)", "\(r)", "\(p)", password],
                                        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], stdin: Self.database)
        try #require(result.status == 0, "python3 with cryptography is needed (scripts/install-deps): \(result.stderr)")
        return result.stdout
    }

    @Test func aVaultBeyondAegisDefaultsButWithinTheBoundsOpens() throws {
        let vault = home.write("aegis.json", try pythonVault(n: 1 << 16, r: 8, p: 2, password: "pw"))
        let imported = cli.run(["otp", "import", vault], env: ["CLOUDSYNC_IMPORT_PASSWORD": "pw"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 1 token"), "\(imported.stdout)")
        #expect(try cli.tokenNames("laptop") == ["Deno:alice"])
    }

    @Test func hostileParametersAreRefusedBeforeAnyKeyIsDerived() throws {
        let vault = try pythonVault(n: 1 << 14, r: 8, p: 1, password: "pw")
        // 1 GiB of memory, N·r·p far beyond the work bound, a bad N, a huge r: each refused at once.
        for (from, to) in [("\"n\": 16384", "\"n\": 1048576"), ("\"p\": 1", "\"p\": 64"), ("\"n\": 16384", "\"n\": 16385"),
                           ("\"r\": 8", "\"r\": 4096"), ("\"n\": 16384", "\"n\": 4611686018427387904")] {
            let hostile = home.write("hostile.json", Self.replacingFirst(from, with: to, in: vault))
            let result = cli.run(["otp", "import", hostile], env: ["CLOUDSYNC_IMPORT_PASSWORD": "pw"])
            #expect(result.status == 65, "\(to): \(result.stderr)")
            #expect(result.stderr.contains("at most 256 MiB"), "\(to): \(result.stderr)")
        }
    }

    @Test func anHOTPCounterThatCouldMakeNoCodeIsRefusedAtAdd() throws {
        let top = cli.run(["otp", "add", "h", "--type", "hotp", "--counter", "9223372036854775807"], stdin: rfcSecret)
        #expect(top.status == 64, "\(top.stderr)")
        #expect(top.stderr.contains("from 0 to 9223372036854775806"), "\(top.stderr)")
        let uri = "otpauth://hotp/h?secret=\(rfcSecret)&counter=9223372036854775807"
        let imported = cli.run(["otp", "add"], stdin: uri)
        #expect(imported.status != 0, "an otpauth URI with a used-up counter: \(imported.stdout)")
        #expect(try cli.tokenNames("laptop").isEmpty)
        // The last usable counter makes oathtool's code (oathtool --hotp -c 9223372036854775806).
        #expect(cli.run(["otp", "add", "h", "--type", "hotp", "--counter", "9223372036854775806"], stdin: rfcSecret).status == 0)
        let code = cli.run(["otp", "code", "h", "-q"])
        #expect(code.status == 0 && code.stdout.contains("891618"), "\(code.stdout)\(code.stderr)")
    }

    /// `text` with the first occurrence of `target` replaced.
    static func replacingFirst(_ target: String, with replacement: String, in text: String) -> String {
        guard let range = text.firstRange(of: target) else { return text }
        var replaced = text
        replaced.replaceSubrange(range, with: replacement)
        return replaced
    }
}
