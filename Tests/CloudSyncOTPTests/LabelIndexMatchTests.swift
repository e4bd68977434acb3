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
        #expect(describe(OTPLabelIndex.match("vpn", inSerialized: text + "three\tfields\tonly\n")) == "malformed")
        #expect(describe(OTPLabelIndex.match("vpn", inSerialized: "garbage")) == "malformed")
    }
}
