import CloudSyncCrypto
import Testing

@Suite("X25519 keys and key agreement")
struct X25519Tests {
    /// RFC 7748 §6.1: Alice's and Bob's keys, and their shared secret.
    @Test func rfc7748DiffieHellman() throws {
        let alice = try X25519PrivateKey(rawRepresentation: hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try X25519PrivateKey(rawRepresentation: hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(Hex.encode(alice.publicKey.rawRepresentation) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(Hex.encode(bob.publicKey.rawRepresentation) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(Hex.encode(try alice.sharedSecret(with: bob.publicKey)) == shared)
        #expect(Hex.encode(try bob.sharedSecret(with: alice.publicKey)) == shared)
    }

    @Test func generatedKeysAgreeAndDiffer() throws {
        let a = try X25519PrivateKey.generate(), b = try X25519PrivateKey.generate()
        #expect(a.rawRepresentation != b.rawRepresentation)
        #expect(try a.sharedSecret(with: b.publicKey) == b.sharedSecret(with: a.publicKey))
        // Raw export and import give the same key back.
        let again = try X25519PrivateKey(rawRepresentation: a.rawRepresentation)
        #expect(again.publicKey == a.publicKey)
        #expect(try X25519PublicKey(rawRepresentation: a.publicKey.rawRepresentation) == a.publicKey)
    }

    @Test func wrongLengthsAreRefused() {
        #expect(throws: CryptoError.self) { try X25519PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: CryptoError.self) { try X25519PublicKey(rawRepresentation: [UInt8](repeating: 1, count: 33)) }
    }

    /// A low-order public key (here the point 0) gives an all-zero secret, which is refused.
    @Test func lowOrderPointIsRefused() throws {
        let key = try X25519PrivateKey.generate()
        let zero = try X25519PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 32))
        #expect(throws: CryptoError.self) { try key.sharedSecret(with: zero) }
    }

    /// Printing a private key shows only its public half.
    @Test func descriptionHidesThePrivateKey() throws {
        let key = try X25519PrivateKey.generate()
        #expect(!"\(key)".contains(Hex.encode(key.rawRepresentation)))
        #expect("\(key)".contains(Hex.encode(key.publicKey.rawRepresentation)))
    }
}

@Suite("X25519 private keys as PKCS#8 PEM")
struct X25519PKCS8Tests {
    /// The DER is RFC 8410's layout: version 0, OID 1.3.101.110, the key in two OCTET STRINGs.
    @Test func derLayout() throws {
        let key = try X25519PrivateKey(rawRepresentation: hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        #expect(Hex.encode(key.pkcs8DER) == "302e020100300506032b656e04220420" + Hex.encode(key.rawRepresentation))
        let pem = key.pkcs8PEM
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("\n-----END PRIVATE KEY-----\n"))
        #expect(try X25519PrivateKey(pkcs8PEM: pem) == key)
    }

    /// Base64 lines are 64 characters (the last may be shorter); a long DER wraps.
    @Test func pemWrapsAt64() throws {
        let pem = PEM.encode([UInt8](repeating: 0xab, count: 100), label: "TEST")
        let lines = pem.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[1].count == 64 && lines[2].count == 64 && lines[3].count < 64)
        #expect(try PEM.decode(pem, label: "TEST") == [UInt8](repeating: 0xab, count: 100))
    }

    @Test func roundTripsRandomKeys() throws {
        for _ in 0..<8 {
            let key = try X25519PrivateKey.generate()
            #expect(try X25519PrivateKey(pkcs8PEM: "some text before\n" + key.pkcs8PEM + "and after") == key)
        }
    }

    /// A v2 OneAsymmetricKey (with the public key) is read, and its public key checked.
    @Test func readsVersion2WithPublicKey() throws {
        let key = try X25519PrivateKey.generate()
        let body: [UInt8] = [0x02, 0x01, 0x01, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20] + key.rawRepresentation
            + [0x81, 0x21, 0x00] + key.publicKey.rawRepresentation
        #expect(try X25519PrivateKey(pkcs8DER: [0x30, UInt8(body.count)] + body) == key)
        var wrong = body
        wrong[wrong.count - 1] ^= 1
        #expect(throws: CryptoError.self) { try X25519PrivateKey(pkcs8DER: [0x30, UInt8(wrong.count)] + wrong) }
    }

    @Test func badInputIsRefusedWithAMessage() throws {
        let key = try X25519PrivateKey.generate()
        var ed25519 = key.pkcs8DER
        ed25519[8] = 0x70 // OID 1.3.101.112 (Ed25519)
        let cases: [[UInt8]] = [[], [0x30], Array(key.pkcs8DER.dropLast()), key.pkcs8DER + [0], ed25519]
        for der in cases {
            #expect(throws: CryptoError.self) { try X25519PrivateKey(pkcs8DER: der) }
        }
        #expect(throws: CryptoError.self) { try X25519PrivateKey(pkcs8PEM: "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n") }
        do {
            _ = try X25519PrivateKey(pkcs8PEM: "not a key")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("PRIVATE KEY"))
            #expect(!error.description.contains("\n"))
        }
    }
}
