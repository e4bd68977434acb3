import CloudSyncCrypto
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Our HPKE against one we did not write: Python's `pyhpke` (PyPI), with Python's `cryptography`
/// reading and writing the PKCS#8 PEM keys. Both are installed by scripts/install-deps (which
/// scripts/test runs) into the `python3` first on PATH; without them these tests fail, on purpose.
///
/// The scheme is the one cloudsync messages use: mode_auth, DHKEM(X25519, HKDF-SHA256),
/// HKDF-SHA256, ChaCha20-Poly1305, info "cloudsync message v1", AAD the record name in UTF-8.
@Suite("HPKE interoperates with Python's pyhpke")
struct HPKEInteropTests {
    static let info = "cloudsync message v1"
    static let recordName = "Message-7D3F0A2C-5B1E-4F5A-9C2D-0123456789AB"

    /// The Python side. `open DIR`: opens DIR/enc + DIR/ct (hex) with the recipient key in
    /// DIR/recipient.pem and the sender's public key DIR/sender.pub (hex). `seal DIR`: makes its
    /// own sender key (DIR/python-sender.pem) and seals DIR/pt (hex) to the public key of
    /// DIR/recipient.pem. Prints `name=hex` lines.
    static let script = #"""
    import sys
    from cryptography.hazmat.primitives import serialization
    from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey

    command, folder, info, aad = sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4].encode()
    suite = CipherSuite.new(KEMId.DHKEM_X25519_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.CHACHA20_POLY1305)
    def read(name):
        with open(f"{folder}/{name}") as f:
            return f.read().strip()
    recipient_pem = read("recipient.pem")
    # What `cryptography` (OpenSSL's PKCS#8 parser) finds in our PEM.
    recipient = serialization.load_pem_private_key(recipient_pem.encode(), password=None)
    recipient_public = recipient.public_key().public_bytes_raw()
    print("recipient_public=" + recipient_public.hex())
    print("recipient_private=" + recipient.private_bytes_raw().hex())
    if command == "open":
        skR = KEMKey.from_pem(recipient_pem)
        pkS = suite.kem.deserialize_public_key(bytes.fromhex(read("sender.pub")))
        # (pyhpke's single-shot CipherSuite.open is not implemented: a context per message.)
        context = suite.create_recipient_context(bytes.fromhex(read("enc")), skR, info=info, pks=pkS)
        pt = context.open(bytes.fromhex(read("ct")), aad=aad)
        print("pt=" + pt.hex())
        # Opening as if from another sender must fail: pyhpke checks the sender too.
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
        other = suite.kem.deserialize_public_key(X25519PrivateKey.generate().public_key().public_bytes_raw())
        try:
            context = suite.create_recipient_context(bytes.fromhex(read("enc")), skR, info=info, pks=other)
            context.open(bytes.fromhex(read("ct")), aad=aad)
            print("wrong_sender=opened")
        except Exception as error:
            print("wrong_sender=refused")
    elif command == "seal":
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
        sender = X25519PrivateKey.generate()
        sender_pem = sender.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()).decode()
        with open(f"{folder}/python-sender.pem", "w") as f:
            f.write(sender_pem)
        print("sender_public=" + sender.public_key().public_bytes_raw().hex())
        pkR = suite.kem.deserialize_public_key(recipient_public)
        enc, context = suite.create_sender_context(pkR, info=info, sks=KEMKey.from_pem(sender_pem))
        ct = context.seal(bytes.fromhex(read("pt")), aad=aad)
        print("enc=" + enc.hex())
        print("ct=" + ct.hex())
    """#

    /// `python3` as the tests' PATH finds it (a pyenv shim, a venv, or Debian's).
    static let python3: String? = {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { access($0, X_OK) == 0 }
    }()

    /// This process's environment, passed on (pyenv's shims need HOME and PYENV_*).
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

    /// Runs the script; its `name=value` lines.
    static func python(_ command: String, in folder: TemporaryDirectory) throws -> [String: String] {
        let python3 = try #require(python3, "python3 is missing: run scripts/install-deps (it installs python3, pyhpke and cryptography)")
        let script = folder.write("interop.py", Self.script)
        let result = ProcessSpawner.run(python3, [script, command, folder.path, info, recordName], environment: environment)
        try #require(result.status == 0, "python3 \(command) failed (pyhpke missing? run scripts/install-deps): \(result.stderr)")
        var values: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            if let equals = line.firstIndex(of: "=") { values[String(line[..<equals])] = String(line[line.index(after: equals)...]) }
        }
        return values
    }

    /// Swift seals (mode_auth); pyhpke, given the recipient's key as our PKCS#8 PEM, opens it,
    /// and refuses it as if from another sender.
    @Test func pyhpkeOpensWhatWeSeal() throws {
        let folder = TemporaryDirectory("hpke-interop")
        let alice = try X25519PrivateKey.generate(), bob = try X25519PrivateKey.generate()
        let plaintext = Array("héllo from Swift ✓ — \(Hex.encode(SecureRandom.bytes(8)))".utf8)
        let sealed = try HPKE.sealAuth(plaintext, to: bob.publicKey, from: alice, info: Array(Self.info.utf8),
                                       aad: Array(Self.recordName.utf8))
        folder.write("recipient.pem", bob.pkcs8PEM, mode: 0o600)
        folder.write("sender.pub", Hex.encode(alice.publicKey.rawRepresentation))
        folder.write("enc", Hex.encode(sealed.encapsulatedKey))
        folder.write("ct", Hex.encode(sealed.ciphertext))
        let out = try Self.python("open", in: folder)
        #expect(out["recipient_private"] == Hex.encode(bob.rawRepresentation), "cryptography reads our PEM as another key")
        #expect(out["recipient_public"] == Hex.encode(bob.publicKey.rawRepresentation))
        #expect(out["pt"] == Hex.encode(plaintext))
        #expect(out["wrong_sender"] == "refused")
    }

    /// pyhpke seals (mode_auth) with a sender key that `cryptography` wrote as PKCS#8 PEM; we
    /// read that PEM and open the message, and refuse it with a changed AAD or sender.
    @Test func weOpenWhatPyhpkeSeals() throws {
        let folder = TemporaryDirectory("hpke-interop")
        let bob = try X25519PrivateKey.generate()
        let plaintext = Array("héllo from Python ✓ — \(Hex.encode(SecureRandom.bytes(8)))".utf8)
        folder.write("recipient.pem", bob.pkcs8PEM, mode: 0o600)
        folder.write("pt", Hex.encode(plaintext))
        let out = try Self.python("seal", in: folder)
        let pem = try #require(TemporaryDirectory.readBytes(folder.file("python-sender.pem")))
        let sender = try X25519PrivateKey(pkcs8PEM: String(decoding: pem, as: UTF8.self))
        #expect(Hex.encode(sender.publicKey.rawRepresentation) == out["sender_public"])
        let sealed = HPKE.Sealed(encapsulatedKey: hex(try #require(out["enc"])), ciphertext: hex(try #require(out["ct"])))
        let info = Array(Self.info.utf8), aad = Array(Self.recordName.utf8)
        #expect(try HPKE.openAuth(sealed, recipient: bob, from: sender.publicKey, info: info, aad: aad) == plaintext)
        #expect(throws: HPKEError.openFailed) {
            try HPKE.openAuth(sealed, recipient: bob, from: sender.publicKey, info: info, aad: Array("Message-other".utf8))
        }
        #expect(throws: HPKEError.openFailed) {
            try HPKE.openAuth(sealed, recipient: bob, from: try X25519PrivateKey.generate().publicKey, info: info, aad: aad)
        }
    }
}
