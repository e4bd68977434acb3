import CloudSyncCore
import Testing

/// Hostile .ckdb text is a one-line error with a position, never a crash, a hang or unbounded
/// recursion: the parser is iterative and bounds the input's size and counts.
@Suite("Schema hostile input")
struct SchemaHostileInputTests {
    func error(_ text: String, limits: SchemaParser.Limits = .standard) -> SchemaError? {
        do {
            _ = try SchemaParser.parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func textOverFourMiBIsRefusedBeforeParsing() {
        let limits = SchemaParser.Limits.standard
        #expect(limits.maxBytes == 4 << 20)
        let huge = "DEFINE SCHEMA\n" + String(repeating: "-- padding\n", count: (4 << 20) / 11 + 1)
        #expect(error(huge)?.rendered(file: "big.ckdb") == "big.ckdb:1:1: schema text is larger than 4194304 bytes")
        // Just under the bound parses (all comments).
        let fits = "DEFINE SCHEMA\n" + String(repeating: "-- padding\n", count: ((4 << 20) - 14) / 11)
        #expect(error(fits) == nil)
    }

    @Test func countsAreBounded() {
        let limits = SchemaParser.Limits(maxBytes: 1 << 20, maxRecordTypes: 3, maxFieldsPerType: 2, maxRoles: 1)
        #expect(error("DEFINE SCHEMA RECORD TYPE A (); RECORD TYPE B (); RECORD TYPE C (); RECORD TYPE D ();",
                      limits: limits)?.description == "1:81: more than 3 record types")
        #expect(error("DEFINE SCHEMA RECORD TYPE A (a STRING, b STRING, c STRING);", limits: limits)?.description
            == "1:50: more than 2 fields in one record type")
        #expect(error("DEFINE SCHEMA CREATE ROLE A; CREATE ROLE B;", limits: limits)?.description
            == "1:42: more than 1 roles")
        let standard = SchemaParser.Limits.standard
        #expect(standard.maxRecordTypes == 2_000 && standard.maxFieldsPerType == 1_000 && standard.maxRoles == 500)
    }

    @Test func manyTypesAndFieldsWithinTheBoundsParse() throws {
        var text = "DEFINE SCHEMA\n"
        for t in 0..<200 {
            text += "RECORD TYPE T\(t) (" + (0..<50).map { "f\($0) STRING QUERYABLE" }.joined(separator: ", ") + ");\n"
        }
        let schema = try SchemaParser.parse(text)
        #expect(schema.recordTypes.count == 200)
        #expect(schema.recordType(named: "T199")?.fields.count == 56)
    }

    @Test func deepListNestingStopsAtTheSecondList() {
        let deep = "DEFINE SCHEMA RECORD TYPE T (a " + String(repeating: "LIST<", count: 100_000) + "STRING"
            + String(repeating: ">", count: 100_000) + ");"
        #expect(error(deep)?.description == "1:37: lists cannot be nested: LIST takes STRING, INT64, … but not LIST")
    }

    @Test func deepParenthesesAreASyntaxError() {
        let deep = "DEFINE SCHEMA RECORD TYPE T " + String(repeating: "(", count: 100_000)
        #expect(error(deep)?.description == "1:30: expected a field name or GRANT, found '('")
    }

    @Test func nulAndOtherControlCharacters() {
        #expect(error("DEFINE SCHEMA\0RECORD TYPE T ();")?.description == "1:14: unexpected character U+0000")
        #expect(error("DEFINE SCHEMA RECORD TYPE \"T\0\" ();")?.description == "1:29: unexpected character U+0000")
        #expect(error("DEFINE SCHEMA\u{1B}[31m")?.description == "1:14: unexpected character U+001B")
        #expect(error("DEFINE SCHEMA RECORD TYPE T (a STRING\u{7F});")?.description == "1:38: unexpected character U+007F")
        #expect(error("\u{FEFF}DEFINE SCHEMA RECORD TYPE T ();") == nil)  // a byte order mark is fine
        // Control characters in comments are ignored, like any comment text.
        #expect(error("DEFINE SCHEMA -- \0\u{1}\u{7}\nRECORD TYPE T ();") == nil)
    }

    @Test func unterminatedThingsAtTheEndOfALongFile() {
        let body = String(repeating: "RECORD TYPE T (a STRING);\n", count: 0)
        #expect(error("DEFINE SCHEMA\n" + body + "/*" + String(repeating: "x", count: 100_000))?.description
            == "2:1: unterminated comment: '/*' without '*/'")
        #expect(error("DEFINE SCHEMA\nRECORD TYPE \"" + String(repeating: "x", count: 100_000))?.description
            == "2:13: unterminated quoted name: no closing '\"' on this line")
    }

    @Test func longNamesAreBoundedAndErrorsShortenThem() {
        let long = String(repeating: "a", count: 256)
        #expect(error("DEFINE SCHEMA RECORD TYPE \(long) ();")?.description == "1:27: name longer than 255 bytes")
        #expect(error("DEFINE SCHEMA RECORD TYPE \"\(long)\" ();")?.description == "1:27: name longer than 255 bytes")
        let typo = String(repeating: "Q", count: 200)
        let message = error("DEFINE SCHEMA RECORD TYPE T (a \(typo));")?.message ?? ""
        #expect(message == "unknown field type '\(String(repeating: "Q", count: 64))…'")
    }

    @Test func arbitraryBytesNeverCrash() {
        // A deterministic sweep of short inputs made from the grammar's own pieces and junk.
        let pieces = ["DEFINE", "SCHEMA", "RECORD", "TYPE", "T", "(", ")", ",", ";", "<", ">", "LIST", "STRING",
                      "\"", "\"_world\"", "GRANT", "READ", "TO", "QUERYABLE", "--", "/*", "*/", "\0", "\n", "é", "ENCRYPTED",
                      "NUMBER", "PREFERRED", "AS", "CREATE", "ROLE"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<3_000 {
            var text = "DEFINE SCHEMA "
            for _ in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count] + " "
            }
            if let e = error(text) {
                #expect(e.line >= 1 && e.column >= 1)
                #expect(!e.rendered(file: "f").contains("\n"))
            }
        }
    }
}
