import CloudSyncCore
import CloudSyncCrypto
import CloudSyncOTP
import Testing

/// Fixtures written from Google Authenticator's published `MigrationPayload` message (by a
/// protobuf encoder of the tests' own, independent of the one in the library).
@Suite("Google Authenticator transfer export")
struct MigrationTests {
    /// Protobuf encoding, the test's own.
    struct Proto {
        var bytes: [UInt8] = []
        mutating func varint(_ value: UInt64) {
            var v = value
            repeat {
                let low = UInt8(v & 0x7f)
                v >>= 7
                bytes.append(v == 0 ? low : low | 0x80)
            } while v != 0
        }
        mutating func int(_ field: UInt64, _ value: Int64) { varint(field << 3); varint(UInt64(bitPattern: value)) }
        mutating func data(_ field: UInt64, _ value: [UInt8]) { varint(field << 3 | 2); varint(UInt64(value.count)); bytes += value }
        mutating func text(_ field: UInt64, _ value: String) { data(field, Array(value.utf8)) }
    }

    struct Entry {
        var secret: [UInt8]
        var name: String
        var issuer: String
        var algorithm: Int64 = 1
        var digits: Int64 = 1
        var type: Int64 = 2
        var counter: Int64? = nil
    }

    static func uri(_ entries: [Entry], size: Int64 = 1, index: Int64 = 0, id: Int64 = 0) -> String {
        var payload = Proto()
        for entry in entries {
            var p = Proto()
            p.data(1, entry.secret)
            p.text(2, entry.name)
            p.text(3, entry.issuer)
            p.int(4, entry.algorithm)
            p.int(5, entry.digits)
            p.int(6, entry.type)
            if let counter = entry.counter { p.int(7, counter) }
            p.varint(99 << 3 | 0)  // an unknown field: skipped
            p.varint(1)
            payload.data(1, p.bytes)
        }
        payload.int(2, 1)
        payload.int(3, size)
        payload.int(4, index)
        payload.int(5, id)
        // Base64 with its '+', '/' and '=' %-escaped, as the app writes the URI.
        var data = ""
        for c in Base64.encode(payload.bytes) {
            switch c {
            case "+": data += "%2B"
            case "/": data += "%2F"
            case "=": data += "%3D"
            default: data.append(c)
            }
        }
        return "otpauth-migration://offline?data=" + data
    }

    static let rfc = Array("12345678901234567890".utf8)

    @Test func oneBatchAllKinds() throws {
        let uri = Self.uri([
            Entry(secret: Self.rfc, name: "alice@gmail.com", issuer: "Google"),
            Entry(secret: Self.rfc + [1], name: "GitHub:alice", issuer: "GitHub", algorithm: 2, digits: 2),
            Entry(secret: Self.rfc + [2], name: "vpn", issuer: "", algorithm: 3, type: 1, counter: 7),
        ], id: -1_234_567)
        let contents = URIListImport.read(uri)
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        #expect(contents.tokens.map(\.name) == ["Google:alice@gmail.com", "GitHub:alice", "vpn"])
        #expect(contents.tokens[1].algorithm == .sha256 && contents.tokens[1].digits == 8 && contents.tokens[1].account == "alice")
        #expect(contents.tokens[2].kind == .hotp && contents.tokens[2].counter == 7 && contents.tokens[2].algorithm == .sha512)
        #expect(contents.tokens[0].code(factor: 1) == "287082")
    }

    /// Several QR codes of one export: a negative batch_id (a 10-byte varint), batches in any order.
    @Test func severalBatchesWithANegativeID() throws {
        let a = Self.uri([Entry(secret: Self.rfc, name: "one", issuer: "A")], size: 3, index: 0, id: -42)
        let b = Self.uri([Entry(secret: Self.rfc + [1], name: "two", issuer: "B")], size: 3, index: 1, id: -42)
        let c = Self.uri([Entry(secret: Self.rfc + [2], name: "three", issuer: "C")], size: 3, index: 2, id: -42)
        #expect(a.contains("data="))
        let contents = URIListImport.read([c, a, b].joined(separator: "\n"))
        #expect(contents.problems.isEmpty)
        #expect(contents.tokens.map(\.issuer) == ["C", "A", "B"])
        // A missing batch is reported; the others still import.
        let partial = URIListImport.read([a, c].joined(separator: "\n"))
        #expect(partial.tokens.count == 2)
        #expect(partial.problems.count == 1)
        #expect(partial.problems.first?.description.contains("batch 2 of 3 is missing") == true)
        #expect(partial.problems.first?.entry.contains("-42") == true)
    }

    @Test func unusableEntriesAreReportedOneByOne() throws {
        let uri = Self.uri([
            Entry(secret: Self.rfc, name: "good", issuer: "X"),
            Entry(secret: Self.rfc + [1], name: "md5", issuer: "Y", algorithm: 4),
            Entry(secret: [1, 2, 3], name: "short", issuer: "Z"),
            Entry(secret: Self.rfc + [3], name: "mystery", issuer: "W", type: 0),
        ])
        let contents = URIListImport.read(uri)
        #expect(contents.tokens.map(\.name) == ["X:good"])
        #expect(contents.problems.map(\.reason) == ["MD5 tokens are not supported",
                                                    "the secret is too short: 24 bits; at least 80 bits (16 base32 characters) are needed",
                                                    "unknown OTP type number 0"])
        #expect(contents.problems[0].entry == "line 1 (Y:md5)")
    }

    @Test func damagedPayloadsAreRefused() {
        for bad in ["otpauth-migration://offline?data=%%%", "otpauth-migration://offline?x=1", "otpauth-migration://offline?data=CgU=",
                    "otpauth-migration://offline?data=" + Base64.encode([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])] {
            let contents = URIListImport.read(bad)
            #expect(contents.tokens.isEmpty && contents.problems.count == 1, "\(bad)")
        }
    }

    @Test func exportRoundTrip() throws {
        var tokens: [OTPToken] = []
        for index in 0..<23 {
            let kind: OTPKind = index % 3 == 0 ? .hotp : .totp
            let digits = index % 2 == 0 ? 6 : 8
            tokens.append(OTPToken(issuer: "Issuer \(index)", account: "user\(index)@example.com", secret: Self.rfc + [UInt8(index)],
                                   kind: kind, algorithm: HashFunction.allCases[index % 3], digits: digits, counter: UInt64(index)))
        }
        tokens.append(OTPToken(name: "Steam", secret: Self.rfc, kind: .steam))
        let (uris, left) = GoogleMigration.format(tokens, perBatch: 10, batchID: -7)
        #expect(uris.count == 3)
        #expect(left.map(\.name) == ["Steam"])
        let contents = URIListImport.read(uris.reversed().joined(separator: "\n"))
        #expect(contents.problems.isEmpty)
        #expect(Set(contents.tokens) == Set(tokens.dropLast()))
    }
}
