import CloudSyncCrypto
import CloudSyncOTP
import Testing

@Suite("RFC 4226, RFC 6238 and Steam vectors")
struct VectorTests {
    /// The RFC seeds: "12345678901234567890" repeated to 20, 32 and 64 bytes for SHA1, SHA256
    /// and SHA512 (RFC 6238 Appendix B uses a key as long as the hash).
    static func seed(_ hash: HashFunction) -> [UInt8] {
        let ascii = Array("1234567890".utf8)
        return (0..<hash.digestSize).map { ascii[$0 % 10] }
    }

    /// RFC 4226 Appendix D: HOTP-SHA1, 6 digits, counters 0 to 9.
    @Test func rfc4226AppendixD() {
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        for (counter, code) in expected.enumerated() {
            #expect(OTPGenerator.hotp(secret: Self.seed(.sha1), counter: UInt64(counter), digits: 6) == code)
        }
        // The intermediate values of Appendix D: the truncated 31-bit integers.
        let mac = HMAC.authenticate([0, 0, 0, 0, 0, 0, 0, 0], key: Self.seed(.sha1), hash: .sha1)
        #expect(Hex.encode(mac) == "cc93cf18508d94934c64b65d8ba7667fb7cde4b0")
        #expect(OTPGenerator.truncate(mac) == 1_284_755_224)
    }

    /// RFC 6238 Appendix B: TOTP with T0 = 0, X = 30, 8 digits, for all three hashes.
    @Test func rfc6238AppendixB() throws {
        let table: [(Int64, String, String, String)] = [
            (59, "94287082", "46119246", "90693936"),
            (1_111_111_109, "07081804", "68084774", "25091201"),
            (1_111_111_111, "14050471", "67062674", "99943326"),
            (1_234_567_890, "89005924", "91819424", "93441116"),
            (2_000_000_000, "69279037", "90698825", "38618901"),
            (20_000_000_000, "65353130", "77737706", "47863826"),
        ]
        for (time, sha1, sha256, sha512) in table {
            for (hash, expected) in [(HashFunction.sha1, sha1), (.sha256, sha256), (.sha512, sha512)] {
                let token = OTPToken(name: "rfc", secret: Self.seed(hash), algorithm: hash, digits: 8)
                let step = try #require(token.step(atUnixSeconds: time))
                #expect(token.code(factor: step) == expected, "\(hash) at \(time)")
            }
        }
        // The time steps of the table, in hex as the RFC prints them (T is 64-bit: 2^32 is passed).
        #expect(OTPGenerator.timeStep(unixSeconds: 20_000_000_000, period: 30) == 0x27BC86AA)
        #expect(OTPGenerator.timeStep(unixSeconds: 1_111_111_109, period: 30) == 0x23523EC)
    }

    /// The moving factor is 64-bit: steps past 2^32 (period 1 s after 2106) still work.
    @Test func stepsBeyond32Bits() {
        let step = OTPGenerator.timeStep(unixSeconds: 5_000_000_000, period: 1)
        #expect(step == 5_000_000_000)
        #expect(OTPGenerator.timeStep(unixSeconds: -1, period: 30) == nil)
        let low = OTPGenerator.hotp(secret: Self.seed(.sha1), counter: 5_000_000_000 & 0xFFFF_FFFF, digits: 6)
        let high = OTPGenerator.hotp(secret: Self.seed(.sha1), counter: 5_000_000_000, digits: 6)
        #expect(low != high, "the upper 32 bits of the counter count")
    }

    /// KeePassXC's Steam vectors (codes read from the Steam mobile app for a throw-away account).
    @Test func steamGuard() throws {
        let secret = try Base32.decode("63BEDWCQZKTQWPESARIERL5DTTQFCJTK")
        let token = OTPToken(name: "Steam", secret: secret, kind: .steam)
        #expect(token.digits == 5 && token.algorithm == .sha1)
        #expect(token.code(factor: try #require(token.step(atUnixSeconds: 1_511_200_518))) == "FR8RV")
        #expect(token.code(factor: try #require(token.step(atUnixSeconds: 1_511_200_714))) == "9P3VP")
        for step in UInt64(0)..<200 {
            let code = token.code(factor: step)
            #expect(code.count == 5 && code.allSatisfy { OTPGenerator.steamAlphabet.contains($0) })
        }
    }

    @Test func codesKeepLeadingZeros() {
        // RFC 6238's 07081804 at 1111111109 with 8 digits; and a 6-digit code with zeros.
        #expect(OTPGenerator.hotp(secret: Self.seed(.sha1), counter: 0x23523EC, digits: 8) == "07081804")
        for counter in UInt64(0)..<2000 {
            #expect(OTPGenerator.hotp(secret: Self.seed(.sha256), counter: counter, digits: 7, algorithm: .sha256).count == 7)
        }
    }
}
