import CloudSyncCrypto
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    /// FIPS 180-4 / NIST CSRC example vectors.
    @Test func nistVectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Both sides of the threshold, through `digest`, against libcrypto and the Swift digest.
    @Test func longInputsGoThroughLibcryptoWithTheSameResult() throws {
        var rng = SystemRandomNumberGenerator()
        for length in [SHA256.libcryptoThreshold - 1, SHA256.libcryptoThreshold, SHA256.libcryptoThreshold + 1, 300_000] {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let software = SoftwareDigest.sha256(data)
            #expect(SHA256.digest(data) == software, "length \(length)")
            #expect(try SHA256.libcrypto(data) == software, "length \(length)")
        }
    }

    @Test func hexEncoding() {
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    }
}
