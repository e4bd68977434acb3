import CloudSyncCrypto
import Testing

@Suite("ChaCha20-Poly1305")
struct ChaChaPolyTests {
    /// RFC 8439 §2.8.2: the AEAD example ("Ladies and Gentlemen of the class of '99 ...").
    @Test func rfc8439Vector() throws {
        let key = hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
        let nonce = hex("070000004041424344454647"), aad = hex("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let sealed = try ChaChaPoly.seal(plaintext, key: key, nonce: nonce, aad: aad)
        #expect(Hex.encode(sealed) == "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b"
                + "1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
                + "3ff4def08e4b7a9de576d26586cec64b6116" + "1ae10b594f09e26a7e902ecbd0600691")
        #expect(try ChaChaPoly.open(sealed, key: key, nonce: nonce, aad: aad) == plaintext)
    }

    @Test func anyChangeFailsAuthentication() throws {
        let key = SecureRandom.bytes(32), nonce = SecureRandom.bytes(12), aad = Array("rec".utf8)
        let sealed = try ChaChaPoly.seal(Array("secret".utf8), key: key, nonce: nonce, aad: aad)
        for index in sealed.indices {
            var flipped = sealed
            flipped[index] ^= 0x80
            #expect(throws: CryptoError.authenticationFailed) { try ChaChaPoly.open(flipped, key: key, nonce: nonce, aad: aad) }
        }
        #expect(throws: CryptoError.authenticationFailed) { try ChaChaPoly.open(sealed, key: key, nonce: nonce, aad: Array("other".utf8)) }
        #expect(throws: CryptoError.authenticationFailed) { try ChaChaPoly.open(sealed, key: key, nonce: SecureRandom.bytes(12), aad: aad) }
        #expect(throws: CryptoError.self) { try ChaChaPoly.open([1, 2], key: key, nonce: nonce) }
        #expect(throws: CryptoError.self) { try ChaChaPoly.seal([], key: [1], nonce: nonce) }
    }

    @Test func emptyPlaintextAndAAD() throws {
        let key = SecureRandom.bytes(32), nonce = SecureRandom.bytes(12)
        let sealed = try ChaChaPoly.seal([], key: key, nonce: nonce)
        #expect(sealed.count == ChaChaPoly.tagSize)
        #expect(try ChaChaPoly.open(sealed, key: key, nonce: nonce).isEmpty)
    }
}

@Suite("HKDF-SHA256")
struct HKDFTests {
    /// RFC 5869 Appendix A, test cases 1 and 3 (SHA-256; case 3 has an empty salt and info).
    @Test func rfc5869Vectors() throws {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        let prk1 = HKDF.extract(salt: hex("000102030405060708090a0b0c"), ikm: ikm)
        #expect(Hex.encode(prk1) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        #expect(Hex.encode(try HKDF.expand(prk: prk1, info: hex("f0f1f2f3f4f5f6f7f8f9"), length: 42))
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        let prk3 = HKDF.extract(salt: [], ikm: ikm)
        #expect(Hex.encode(prk3) == "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04")
        #expect(Hex.encode(try HKDF.expand(prk: prk3, info: [], length: 42))
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    @Test func expandLengthLimit() throws {
        let prk = [UInt8](repeating: 1, count: 32)
        #expect(try HKDF.expand(prk: prk, info: [], length: 8160).count == 8160)
        #expect(try HKDF.expand(prk: prk, info: [], length: 0).isEmpty)
        #expect(throws: CryptoError.self) { try HKDF.expand(prk: prk, info: [], length: 8161) }
    }
}
