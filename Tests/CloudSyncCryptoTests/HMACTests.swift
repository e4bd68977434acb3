import CloudSyncCrypto
import Testing

@Suite("HMAC and the software digests")
struct HMACTests {
    struct Vector: Sendable {
        var key: [UInt8]
        var data: [UInt8]
        var mac: String
    }

    static let block20 = [UInt8](repeating: 0xaa, count: 20)
    static let counting25 = (1...25).map { UInt8($0) }

    /// RFC 2202 §3: HMAC-SHA-1 test cases 1-7.
    static let rfc2202: [Vector] = [
        Vector(key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8), mac: "b617318655057264e28bc0b6fb378c8ef146be00"),
        Vector(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8), mac: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        Vector(key: block20, data: [UInt8](repeating: 0xdd, count: 50), mac: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        Vector(key: counting25, data: [UInt8](repeating: 0xcd, count: 50), mac: "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        Vector(key: [UInt8](repeating: 0x0c, count: 20), data: Array("Test With Truncation".utf8), mac: "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        Vector(key: [UInt8](repeating: 0xaa, count: 80), data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
               mac: "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        Vector(key: [UInt8](repeating: 0xaa, count: 80),
               data: Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
               mac: "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
    ]

    static let longKey = [UInt8](repeating: 0xaa, count: 131)
    static let case7 = Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8)

    /// RFC 4231 §4: HMAC-SHA-256 and HMAC-SHA-512, test cases 1-7 (case 5 truncated to 128 bits).
    static let rfc4231: [(Vector, String)] = [
        (Vector(key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
                mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
         "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
        (Vector(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
                mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
         "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
        (Vector(key: block20, data: [UInt8](repeating: 0xdd, count: 50),
                mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
         "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"),
        (Vector(key: counting25, data: [UInt8](repeating: 0xcd, count: 50),
                mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
         "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
        (Vector(key: [UInt8](repeating: 0x0c, count: 20), data: Array("Test With Truncation".utf8),
                mac: "a3b6167473100ee06e0c796c2955552b"),
         "415fad6271580a531d4179bc891d87a6"),
        (Vector(key: longKey, data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
         "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
        (Vector(key: longKey, data: case7, mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
         "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
    ]

    @Test func rfc2202SHA1() throws {
        for vector in Self.rfc2202 {
            #expect(Hex.encode(HMAC.authenticate(vector.data, key: vector.key, hash: .sha1)) == vector.mac)
            #expect(Hex.encode(try HMAC.libcrypto(vector.data, key: vector.key, hash: .sha1)) == vector.mac)
        }
    }

    @Test func rfc4231SHA256AndSHA512() throws {
        for (vector, sha512) in Self.rfc4231 {
            for (hash, expected) in [(HashFunction.sha256, vector.mac), (.sha512, sha512)] {
                let swift = Hex.encode(HMAC.authenticate(vector.data, key: vector.key, hash: hash))
                let openssl = Hex.encode(try HMAC.libcrypto(vector.data, key: vector.key, hash: hash))
                #expect(swift.hasPrefix(expected), "\(hash)")
                #expect(openssl.hasPrefix(expected), "\(hash)")
            }
        }
    }

    /// FIPS 180-4 examples (and the padding edge cases around a block boundary) against libcrypto.
    @Test func digestsMatchKnownValuesAndLibcrypto() throws {
        #expect(Hex.encode(SoftwareDigest.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Hex.encode(SoftwareDigest.sha1([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SoftwareDigest.sha256(Array("abc".utf8)) == (try SHA256.libcrypto(Array("abc".utf8))))
        #expect(Hex.encode(SoftwareDigest.sha512(Array("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        var rng = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 111, 112, 119, 127, 128, 129, 200, 1000] {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(SoftwareDigest.sha256(data) == (try SHA256.libcrypto(data)), "length \(length)")
            for hash in HashFunction.allCases {
                let key = (0..<Int.random(in: 0...150, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                #expect(HMAC.authenticate(data, key: key, hash: hash) == (try HMAC.libcrypto(data, key: key, hash: hash)),
                        "\(hash) key \(key.count) data \(length)")
            }
        }
    }
}
