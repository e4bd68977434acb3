import CloudSyncCore
import Testing

@Suite("NameRules")
struct NameRulesTests {
    @Test(arguments: ["a", "Note-1", "x.y_z", "~!@#$%^&*()", String(repeating: "r", count: 255)])
    func validRecordNames(name: String) {
        #expect(Fixtures.error { try NameRules.validateRecordName(name) } == nil)
    }

    @Test(arguments: [
        ("", "record name must be 1 to 255 bytes, got 0"),
        (String(repeating: "r", count: 256), "record name must be 1 to 255 bytes, got 256"),
        (String(repeating: "é", count: 128), "record name must be 1 to 255 bytes, got 256"),
        ("has space", "record name 'has space' must be printable ASCII without spaces"),
        ("tab\there", "must be printable ASCII"),
        ("caf\u{E9}", "must be printable ASCII"),
        ("del\u{7F}", "must be printable ASCII"),
    ])
    func invalidRecordNames(name: String, reason: String) {
        let error = Fixtures.error { try NameRules.validateRecordName(name) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "no error")")
    }

    @Test(arguments: ["_defaultZone", "Notes", "a.b-c_d", "Z9", String(repeating: "z", count: 255)])
    func validZoneNames(name: String) {
        #expect(Fixtures.error { try NameRules.validateZoneName(name) } == nil)
    }

    @Test(arguments: [
        ("", "zone name must be 1 to 255 bytes"),
        (String(repeating: "z", count: 256), "zone name must be 1 to 255 bytes"),
        ("a b", "zone name 'a b' may hold only letters, digits, '.', '-' and '_'"),
        ("zöne", "may hold only letters"),
        ("a/b", "may hold only letters"),
        ("_private", "zone name '_private' must not start with '_' (reserved)"),
        ("_defaultzone", "must not start with '_'"),
    ])
    func invalidZoneNames(name: String, reason: String) {
        let error = Fixtures.error { try NameRules.validateZoneName(name) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "no error")")
    }

    @Test(arguments: ["a", "Title", "count_2", "A_B_C", "x" + String(repeating: "9", count: 254)])
    func validIdentifiers(name: String) {
        #expect(Fixtures.error { try NameRules.validateIdentifier(name, kind: "field name") } == nil)
    }

    @Test(arguments: [
        ("", "field name must be 1 to 255 bytes"),
        ("x" + String(repeating: "9", count: 255), "field name must be 1 to 255 bytes"),
        ("1abc", "field name '1abc' must start with a letter and hold only letters, digits and '_'"),
        ("_x", "must start with a letter"),
        ("a-b", "must start with a letter"),
        ("a b", "must start with a letter"),
        ("é", "must start with a letter"),
    ])
    func invalidIdentifiers(name: String, reason: String) {
        let error = Fixtures.error { try NameRules.validateIdentifier(name, kind: "field name") }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "no error")")
    }

    /// The byte check agrees with the rule stated on scalars (an ASCII letter, then ASCII
    /// letters, digits and '_', 1 to 255 bytes) on generated names, accents and emoji included.
    @Test func generatedNamesFollowTheScalarRule() {
        let alphabet: [String] = ["a", "Z", "q", "0", "9", "_", "-", " ", "é", "ß", "🙂", "\u{0}", "A"]
        var state: UInt64 = 11
        for _ in 0..<3000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let length = Int(state >> 60)
            var name = ""
            for step in 0..<length {
                let pick = (state >> UInt64(4 * (step % 14))) % UInt64(alphabet.count)
                name += alphabet[Int(pick)]
            }
            let scalars = Array(name.unicodeScalars)
            let expected = !scalars.isEmpty && name.utf8.count <= 255
                && scalars[0].isASCII && scalars[0].properties.isAlphabetic
                && scalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
            #expect((Fixtures.error { try NameRules.validateIdentifier(name, kind: "field name") } == nil) == expected, "\(name)")
        }
    }

    @Test func kindIsUsedInTheMessage() {
        #expect(Fixtures.reason { try NameRules.validateIdentifier("9", kind: "record type") }?.hasPrefix("record type '9'") == true)
    }

    @Test func quotedTruncatesLongNames() {
        #expect(NameRules.quoted("abc") == "'abc'")
        #expect(NameRules.quoted(String(repeating: "x", count: 80)) == "'" + String(repeating: "x", count: 80) + "'")
        #expect(NameRules.quoted(String(repeating: "x", count: 81)) == "'" + String(repeating: "x", count: 80) + "…'")
    }

    @Test func identifiersDescribeThemselves() {
        let zone = ZoneID(zoneName: "Notes", ownerRecordName: "_owner")
        #expect(zone.description == "Notes:_owner")
        #expect(RecordID(recordName: "r", zoneID: zone).description == "r@Notes")
        #expect(ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: "_o").isDefaultZone)
        #expect(zone.isDefaultZone == false)
        #expect(DatabaseScope(argument: "PUBLIC") == .public)
        #expect(DatabaseScope(argument: "team") == nil)
    }
}
