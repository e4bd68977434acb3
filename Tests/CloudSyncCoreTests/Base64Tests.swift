import CloudSyncCore
import Testing

@Suite("Base64")
struct Base64Tests {
    /// RFC 4648 §10.
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: vectors)
    func rfc4648Vectors(plain: String, encoded: String) {
        let bytes = Array(plain.utf8)
        #expect(Base64.encode(bytes) == encoded)
        #expect(Base64.decode(encoded) == bytes)
        // The URL alphabet gives the same text for these (no + or /).
        #expect(Base64.encode(bytes, url: true) == encoded)
    }

    @Test(arguments: vectors)
    func withoutPadding(plain: String, encoded: String) {
        let unpadded = String(encoded.filter { $0 != "=" })
        #expect(Base64.encode(Array(plain.utf8), padding: false) == unpadded)
        #expect(Base64.decode(unpadded) == Array(plain.utf8))
    }

    @Test func alphabetsDifferOnlyInTwoCharacters() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        #expect(Base64.encode(bytes) == "+/+/")
        #expect(Base64.encode(bytes, url: true) == "-_-_")
        #expect(Base64.encode([0xFB, 0xFF], url: true, padding: false) == "-_8")
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        #expect(Base64.decode("+/+/") == bytes)
        #expect(Base64.decode("-_-_") == bytes)
        #expect(Base64.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64.decode("+/8=") == [0xFB, 0xFF])
    }

    @Test(arguments: [
        "Z", "Zg=", "Zm9vY", "Zm9vY===", "Zg===", "====", "=", "Zg==Zg==", "Z=g=", "Zh==", "Zm9=",
        "Zm9v!", " Zg==", "Zg==\n", "Zm 9v", "Zm9v\u{E9}",
    ])
    func invalidInputIsNil(text: String) {
        #expect(Base64.decode(text) == nil, "\(text)")
    }

    @Test func everyByteAndLengthRoundTrips() {
        let all = (0...255).map { UInt8($0) }
        for length in 0...12 {
            for start in stride(from: 0, to: 256 - length, by: 37) {
                let bytes = Array(all[start..<start + length])
                for url in [false, true] {
                    for padding in [false, true] {
                        let text = Base64.encode(bytes, url: url, padding: padding)
                        #expect(Base64.decode(text) == bytes, "\(bytes) url=\(url) padding=\(padding)")
                    }
                }
            }
        }
        #expect(Base64.decode(Base64.encode(all)) == all)
    }
}
