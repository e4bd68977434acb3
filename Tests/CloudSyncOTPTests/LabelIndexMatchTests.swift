@testable import CloudSyncOTP
import Testing

@Suite("Matching on the label index's text form")
struct LabelIndexMatchTests {
    typealias L = OTPQuery.Labels
    /// The query tests' tokens, then escapes, non-ASCII labels and names around the 0x01 marker.
    let labels = QueryTests().tokens + [
        L(name: "tab\there\\and\nnewline", issuer: "Odd\\Issuer", account: "x\ty"),
        L(name: "Ärzte", issuer: "Ärztekammer", account: "jörg"),
        L(name: "ÄRZTE:JÖRG", issuer: "", account: ""),
        L(name: "odd\u{1}name", issuer: "Pair", account: "x"),
        L(name: "Pair:y", issuer: "Pair", account: "y"),
        L(name: "\u{1}", issuer: "", account: ""),
    ]

    var index: OTPLabelIndex { Self.index(of: labels, transaction: 42) }

    /// An index of `labels`, the record names `otp-0`, `otp-1`, … in their order.
    static func index(of labels: [L], transaction: Int64) -> OTPLabelIndex {
        OTPLabelIndex(lastTransaction: transaction, entries: labels.enumerated().map { .init(recordName: "otp-\($0.offset)", labels: $0.element) })
    }

    /// Matching the text form of `index` agrees with matching its parsed entries.
    func expectAgreement(_ query: String, on index: OTPLabelIndex, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = index.serialized()
        let direct = OTPQuery.match(query, in: OTPLabelIndex.parse(text)!.entries, labels: \.labels)
        #expect(describe(OTPLabelIndex.match(query, inSerialized: text)) == describe(direct), sourceLocation: sourceLocation)
    }

    func describe(_ result: OTPQueryResult<OTPLabelIndex.Entry>?) -> String {
        switch result {
        case .match(let entry)?: entry.recordName + "=" + entry.labels.name
        case .ambiguous(let entries)?: "ambiguous:" + entries.map(\.recordName).sorted().joined(separator: ",")
        case .none?: "none"
        case nil: "malformed"
        }
    }

    @Test(arguments: ["GitHub", "github", "GitHub:alice-corp", "github:ALICE-CORP", "Google", "google", "bob", "web serv",
                      "alice", "vpn", "VPN", "nothing", "", "here\\and", "x\ty", "Odd\\Issuer", "odd\\issuer", "ärzte", "pair:Y", "Pair:y", "\u{1}", "odd\u{1}name", "air:",
                      "Ärztekammer:jörg", "ärztekammer:JÖRG", "JÖRG", "ö", "otp-1", "Service", ":"])
    func agreesWithMatchingTheParsedEntries(query: String) {
        expectAgreement(query, on: index)
    }

    /// The same on an all-ASCII index (the per-label ASCII checks are skipped there).
    @Test(arguments: ["GitHub", "github", "GitHub:alice-corp", "github:ALICE-CORP", "Google", "google", "bob", "web serv",
                      "alice", "vpn", "VPN", "nothing", "here\\and", "x\ty", "pair:Y", "Pair:y", "air:", "e:x", "b:A",
                      "otp-1", "Service", ":", "gle:al"])
    func agreesOnAnASCIIIndex(query: String) {
        let ascii = Self.index(of: labels.filter { $0.name.utf8.allSatisfy { $0 < 128 } }, transaction: 1)
        #expect(ascii.serialized().utf8.allSatisfy { $0 < 128 })
        expectAgreement(query, on: ascii)
    }

    /// A query without ':' is searched for in the folded text and only the lines holding it are
    /// compared: on many generated ASCII tokens (record names, issuers and accounts sharing
    /// letters and digits, escapes, the 0x01 marker), every query, wherever it lies in a line,
    /// gets what matching the parsed entries gets.
    @Test func lineSearchAgreesOnGeneratedTokens() {
        var generator = SplitMix64(state: 16)
        let words = ["Service", "service", "GitHub", "vpn", "Bank", "mail", "e", "z9", "user", "ex-ample", "a.b", "Q"]
        func word() -> String { words[Int(generator.next() % UInt64(words.count))] + String(generator.next() % 40) }
        var tokens: [L] = []
        for index in 0..<300 {
            let issuer = index % 7 == 0 ? "" : word(), account = index % 11 == 0 ? "" : word() + "@" + word()
            let name = index % 3 == 0 ? word() + (index % 13 == 0 ? "\\t\t" : "") : issuer.isEmpty ? account : issuer + ":" + account
            tokens.append(L(name: name, issuer: issuer, account: account))
        }
        let index = Self.index(of: tokens, transaction: 7)
        var queries = ["service1", "SERVICE12", "e", "E1", "9", "z9", "z93", "@", "a.b1", "otp-2", "otp-299", "ex-ample3@mail",
                       "vpn39", "q", "\t", "nothing-here", "Service", "user0@user0"]
        for _ in 0..<60 { queries.append(String(word().prefix(Int(generator.next() % 6) + 1))) }
        for query in queries { expectAgreement(query, on: index) }
    }

    /// Lines that do not hold the query are not split: the tabs and line breaks of the whole
    /// text are counted instead, so a malformed line anywhere is still noticed.
    @Test func malformedLinesAreNoticedWithoutSplittingEveryLine() {
        let ascii = Self.index(of: labels.filter { $0.name.utf8.allSatisfy { $0 < 128 } }, transaction: 1).serialized()
        #expect(describe(OTPLabelIndex.match("vpn", inSerialized: ascii)) == "otp-4=vpn")
        for damage in ["VPN\tfour\tfive\tsix\tseven\n", "x\tvpn\n", "x\ty\n", "broken line\n", "a\tb\n\tc\td\te\n"] {
            #expect(describe(OTPLabelIndex.match("vpn", inSerialized: ascii + damage)) == "malformed", "\(damage)")
        }
        #expect(describe(OTPLabelIndex.match("vpn", inSerialized: ascii + "\n\n")) == "otp-4=vpn", "empty lines are allowed")
        #expect(describe(OTPLabelIndex.match("vpn", inSerialized: "otp-label-index 2\tx\n" + "otp-4\tvpn\t\t\n")) == "malformed",
                "a header without its transaction")
    }

    /// The text shape (tabs, line breaks, ASCII), sixteen bytes at a time, against counting byte
    /// by byte: every length and alignment up to 80 bytes, and texts long enough (all tabs,
    /// all breaks, mixed) that each byte lane reaches its limit of 255 sixteen-byte blocks
    /// (4,080 bytes) at least once before it is summed.
    @Test func measuresTheTextShapeOfAnyLengthAndAlignment() {
        var generator = SplitMix64(state: 9)
        func expectShape(_ slice: [UInt8], _ comment: Comment) {
            let shape = slice.withUnsafeBufferPointer { OTPLabelIndex.TextShape($0.baseAddress ?? UnsafePointer(bitPattern: 8)!, $0.count) }
            #expect(shape == OTPLabelIndex.TextShape(tabs: slice.filter { $0 == 9 }.count, breaks: slice.filter { $0 == 10 }.count,
                                                     isASCII: slice.allSatisfy { $0 < 128 }), comment)
        }
        for length in 0..<80 {
            let bytes = (0..<length).map { _ in [9, 10, 11, 0, 137, 0x0A, 0x89, 65][Int(generator.next() % 8)] as UInt8 }
            for shift in 0..<3 where shift <= length {
                expectShape(Array(bytes[shift...]), "length \(length - shift)")
            }
        }
        expectShape([UInt8](repeating: 9, count: 16 * 255 * 3 + 13), "all tabs")
        expectShape([UInt8](repeating: 10, count: 16 * 256 + 7), "all breaks")
        let mixed = (0..<20_011).map { _ in [9, 10, 9, 9, 65, 97, 48][Int(generator.next() % 7)] as UInt8 }
        expectShape(mixed, "mixed ASCII")
        expectShape(mixed + [200], "one byte above ASCII at the end")
        expectShape([200] + mixed, "one byte above ASCII at the start")
    }

    @Test func namesThatAreIssuerColonAccountAreWrittenAsOneByte() {
        let text = index.serialized()
        #expect(text.contains("otp-2\tGoogle:alice@gmail.com") == false)
        #expect(text.contains("otp-2\t\u{1}\tGoogle\talice@gmail.com\n"))
        #expect(text.contains("otp-9\todd\\1name\tPair\tx\n"), "a literal 0x01 is escaped")
        #expect(text.contains("otp-11\t\\1\t\t\n"))
        #expect(OTPLabelIndex.parse(text)?.sorted == index.sorted, "the text form reads back exactly")
    }

    @Test func readsTheHeaderAloneAndRefusesMalformedText() {
        let text = index.serialized()
        #expect(OTPLabelIndex.lastTransaction(ofSerialized: text) == 42)
        #expect(describe(OTPLabelIndex.match("vpn", inSerialized: text)) == "otp-4=vpn")
        #expect(OTPLabelIndex.lastTransaction(ofSerialized: "otp-label-index 1\t42\n") == nil, "an older format version")
        #expect(OTPLabelIndex.lastTransaction(ofSerialized: "otp-label-index 1\tx\n") == nil)
        #expect(describe(OTPLabelIndex.match("only", inSerialized: text + "three\tfields\tonly\n")) == "malformed")
        #expect(describe(OTPLabelIndex.match("vpn", inSerialized: "garbage")) == "malformed")
    }
}

/// A small deterministic generator (SplitMix64), so that a failing case can be replayed.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
