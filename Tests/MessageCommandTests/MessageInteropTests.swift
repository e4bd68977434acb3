import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A stored message opened by an HPKE implementation we did not write: Python's `pyhpke`
/// (installed by scripts/install-deps), given only what a user can get out of cloudsync: the
/// recipient's PEM from `keys export-identity`, the record from `record get --database public
/// --json`, and the sender's public key from `keys show --json`. Fails when pyhpke is missing.
@Suite("message: pyhpke opens a stored cloudsync message")
struct MessageInteropTests {

    static let script = #"""
    import base64, json, sys
    from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey
    pem_path, record_path, sender_path = sys.argv[1:4]
    record = json.load(open(record_path))["records"][0]  # the lookup reply: {"records": [record]}
    fields = record["fields"]
    sender = json.load(open(sender_path))
    suite = CipherSuite.new(KEMId.DHKEM_X25519_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.CHACHA20_POLY1305)
    skR = KEMKey.from_pem(open(pem_path).read())
    pkS = suite.kem.deserialize_public_key(base64.b64decode(sender["publicKey"]))
    context = suite.create_recipient_context(base64.b64decode(fields["enc"]["value"]), skR,
                                             info=b"cloudsync message v1", pks=pkS)
    pt = context.open(base64.b64decode(fields["ciphertext"]["value"]), aad=record["recordName"].encode())
    sys.stdout.write(pt.decode())
    """#

    static let python3: String? = {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { access($0, X_OK) == 0 }
    }()

    static var environment: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") { result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]) }
            entry += 1
        }
        return result
    }

    @Test(arguments: AccountsBackend.allCases)
    func pyhpkeOpensAStoredMessageWithTheExportedKey(_ backend: AccountsBackend) throws {
        let fx = try MessageFixture(backend)
        _ = try fx.identity("bob")
        let text = "héllo bob ✓ from cloudsync"
        let id = try fx.send("alice", "bob", text)
        let pem = fx.home.file("bob.pem")
        let export = fx.run("bob", ["keys", "export-identity", "--output", pem], device: "phone")
        #expect(export.status == 0, "\(export.stderr)")
        var info = stat()
        #expect(stat(pem, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(fx.run("bob", ["keys", "export-identity", "--output", pem]).status != 0, "never overwrites")
        let wrong = fx.run("bob", ["keys", "export-identity", "--output", fx.home.file("x.pem")], env: ["CLOUDSYNC_PASSPHRASE": "wrong"])
        #expect(wrong.status == 77, "the passphrase is checked")
        let record = fx.run("bob", ["record", "get", id, "--database", "public", "--json"])
        #expect(record.status == 0)
        let sender = fx.run("bob", ["keys", "show", "alice", "--json"])
        #expect(sender.status == 0)
        let script = fx.home.write("open.py", Self.script)
        let python3 = try #require(Self.python3, "python3 is missing: run scripts/install-deps")
        let opened = ProcessSpawner.run(python3, [script, pem, fx.home.write("record.json", record.stdout),
                                                  fx.home.write("sender.json", sender.stdout)], environment: Self.environment)
        #expect(opened.status == 0, "pyhpke missing? run scripts/install-deps: \(opened.stderr)")
        #expect(opened.stdout == text)
    }
}
