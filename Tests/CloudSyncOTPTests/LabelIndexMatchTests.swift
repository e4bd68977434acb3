@testable import CloudSyncOTP
import Testing

@Suite("Matching on the label index's text form")
struct LabelIndexMatchTests {
    typealias L = OTPQuery.Labels
    let labels = [
        L(name: "GitHub", issuer: "GitHub", account: "alice"),
        L(name: "GitHub:work", issuer: "GitHub", account: "alice-corp"),
        L(name: "Google:alice@gmail.com", issuer: "Google", account: "alice@gmail.com"),
        L(name: "Google:bob@gmail.com", issuer: "Google", account: "bob@gmail.com"),
        L(name: "vpn", issuer: "", account: ""),
        L(name: "AWS root", issuer: "Amazon Web Services", account: "root"),
        L(name: "tab\there\\and\nnewline", issuer: "Odd\\Issuer", account: "x\ty"),
        L(name: "Ärzte", issuer: "Ärztekammer", account: "jörg"),
        L(name: "ÄRZTE:JÖRG", issuer: "", account: ""),
        L(name: "odd\u{1}name", issuer: "Pair", account: "x"),
        L(name: "Pair:y", issuer: "Pair", account: "y"),
        L(name: "\u{1}", issuer: "", account: ""),
    ]

    var index: OTPLabelIndex {
        OTPLabelIndex(lastTransaction: 42, entries: labels.enumerated().map { .init(recordName: "otp-\($0.offset)", labels: $0.element) })
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
        let text = index.serialized()
        let direct = OTPQuery.match(query, in: OTPLabelIndex.parse(text)!.entries, labels: \.labels)
        #expect(describe(OTPLabelIndex.match(query, inSerialized: text)) == describe(direct))
    }

    /// The same on an all-ASCII index (the per-label ASCII checks are skipped there).
    @Test(arguments: ["GitHub", "github", "GitHub:alice-corp", "github:ALICE-CORP", "Google", "google", "bob", "web serv",
                      "alice", "vpn", "VPN", "nothing", "here\\and", "x\ty", "pair:Y", "Pair:y", "air:", "e:x", "b:A",
                      "otp-1", "Service", ":", "gle:al"])
    func agreesOnAnASCIIIndex(query: String) {
        let ascii = OTPLabelIndex(lastTransaction: 1, entries: labels.enumerated().filter { $0.element.name.utf8.allSatisfy { $0 < 128 } }
            .map { .init(recordName: "otp-\($0.offset)", labels: $0.element) })
        let text = ascii.serialized()
        #expect(text.utf8.allSatisfy { $0 < 128 })
        let direct = OTPQuery.match(query, in: OTPLabelIndex.parse(text)!.entries, labels: \.labels)
        #expect(describe(OTPLabelIndex.match(query, inSerialized: text)) == describe(direct))
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
