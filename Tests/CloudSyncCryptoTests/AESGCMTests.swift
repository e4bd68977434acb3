import CloudSyncCrypto
import Testing

func hex(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var chars = Array(text.utf8).makeIterator()
    while let h = chars.next(), let l = chars.next() {
        out.append(UInt8(String(decoding: [h, l], as: UTF8.self), radix: 16)!)
    }
    return out
}

@Suite("AES-256-GCM")
struct AESGCMTests {
    /// McGrew & Viega, "The Galois/Counter Mode of Operation", test cases 13, 14 and 16.
    @Test func gcmSpecVectors() throws {
        let zeroKey = [UInt8](repeating: 0, count: 32), zeroIV = [UInt8](repeating: 0, count: 12)
        #expect(Hex.encode(try AESGCM.seal([], key: zeroKey, nonce: zeroIV)) == "530f8afbc74536b9a963b4f1c4cb738b")
        #expect(Hex.encode(try AESGCM.seal([UInt8](repeating: 0, count: 16), key: zeroKey, nonce: zeroIV))
                == "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919")
        let key = hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let iv = hex("cafebabefacedbaddecaf888")
        let plaintext = hex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let sealed = try AESGCM.seal(plaintext, key: key, nonce: iv, aad: aad)
        #expect(Hex.encode(sealed) == "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f66276fc6ece0f4e1768cddf8853bb2d551b")
        #expect(try AESGCM.open(sealed, key: key, nonce: iv, aad: aad) == plaintext)
    }

    @Test func anyChangeFailsAuthentication() throws {
        let key = SecureRandom.bytes(32), nonce = SecureRandom.bytes(12)
        let sealed = try AESGCM.seal(Array("secret".utf8), key: key, nonce: nonce, aad: Array("rec/field".utf8))
        var flipped = sealed
        flipped[0] ^= 1
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(flipped, key: key, nonce: nonce, aad: Array("rec/field".utf8)) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(sealed, key: key, nonce: nonce, aad: Array("rec/other".utf8)) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(sealed, key: SecureRandom.bytes(32), nonce: nonce, aad: Array("rec/field".utf8)) }
        #expect(throws: CryptoError.self) { try AESGCM.open([1, 2], key: key, nonce: nonce) }
    }
}

@Suite("scrypt")
struct ScryptTests {
    /// RFC 7914 §12 test vectors (the two cheap ones).
    @Test func rfc7914Vectors() throws {
        #expect(Hex.encode(try Scrypt(n: 16, r: 1, p: 1).derive(password: [], salt: [], length: 64))
                == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
        #expect(Hex.encode(try Scrypt(n: 1024, r: 8, p: 16).derive(password: Array("password".utf8), salt: Array("NaCl".utf8), length: 64))
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
    }

    @Test func badParametersAreRefused() {
        #expect(throws: CryptoError.self) { _ = try Scrypt(n: 1000, r: 8, p: 1).derive(password: [], salt: [], length: 32) }
    }
}
