import CloudSyncOTP
import Testing

@Suite("Base32")
struct Base32Tests {
    /// RFC 4648 §10.
    @Test func rfc4648Vectors() throws {
        let vectors = [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
                       ("foobar", "MZXW6YTBOI")]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(try Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(try Base32.decode("MZXW6YTBOI======") == Array("foobar".utf8), "padding is optional but accepted")
    }

    @Test func toleratesCaseSpacesAndMissingPadding() throws {
        let secret = try Base32.decode("JBSWY3DPEHPK3PXP")
        #expect(try Base32.decode("jbsw y3dp ehpk 3pxp") == secret)
        #expect(try Base32.decode(" JBSW-Y3DP-EHPK-3PXP\n") == secret)
        #expect(try Base32.decode("gezdgnbvgy3tqojqgezdgnbvgy3tqojq") == Array("12345678901234567890".utf8))
    }

    @Test func refusesWhatIsNotBase32() {
        #expect(throws: OTPError.invalidSecret("the secret is not base32: '1' at position 4 (base32 uses A-Z and 2-7)")) {
            try Base32.decode("JBS1Y3DP")
        }
        #expect(throws: OTPError.self) { try Base32.decode("JBSWY3DP8") }
        #expect(throws: OTPError.self) { try Base32.decode("MZX") }  // 3 symbols cannot end a group
        #expect(throws: OTPError.self) { try Base32.decode("MY==MY") }
    }

    @Test func randomRoundTrips() throws {
        var rng = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(try Base32.decode(Base32.encode(bytes)) == bytes)
        }
    }
}
