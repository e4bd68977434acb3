import CloudSyncCore
import Testing

/// Issue 25, item 10: a .ckdb file that is not UTF-8 text is refused at the line and column of
/// its first bad byte (columns in Unicode scalars, as every other schema error), not just "not
/// UTF-8 text".
@Suite("schema files that are not UTF-8")
struct SchemaUTF8Tests {
    func refusal(_ bytes: [UInt8]) -> SchemaError? {
        do throws(SchemaError) {
            _ = try SchemaParser.parse(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    static let header = Array("DEFINE SCHEMA\n  RECORD TYPE Post (\n    \"".utf8)

    @Test func theFirstBadByteIsNamedAtItsLineAndColumn() {
        // Line 3: four spaces and a quote before it (column 6), after a valid "é" (column 7).
        let cases: [([UInt8], Int, UInt8)] = [
            ([0xFF], 6, 0xFF),                 // never in UTF-8
            ([0xC3, 0xA9, 0x80], 7, 0x80),     // a continuation byte alone
            ([0xC3, 0xA9, 0xC3, 0x28], 7, 0xC3), // a lead byte without its continuation
            ([0xC0, 0xAF], 6, 0xC0),           // an overlong '/'
            ([0xED, 0xA0, 0x80], 6, 0xED),     // a surrogate
            ([0xF4, 0x90, 0x80, 0x80], 6, 0xF4), // past U+10FFFF
            ([0xE2, 0x82], 6, 0xE2),           // cut short at the end of the file
        ]
        for (bad, column, byte) in cases {
            let error = refusal(Self.header + bad)
            #expect(error?.line == 3 && error?.column == column, "\(bad): \(String(describing: error))")
            #expect(error?.kind == .invalidUTF8(byte), "\(bad)")
        }
        let error = refusal(Self.header + [0xFF])
        #expect(error?.rendered(file: "app.ckdb")
                == "app.ckdb:3:6: not UTF-8 text: byte 0xFF does not begin a valid UTF-8 character")
    }

    @Test func aByteOrderMarkIsSkippedAndValidTextParses() throws {
        #expect(refusal([0xEF, 0xBB, 0xBF, 0x41, 0xFE])?.column == 2)
        let text = "DEFINE SCHEMA\n  RECORD TYPE Post (\"títle\" STRING, \"🙂\" INT64)\n"
        #expect(try SchemaParser.parse(bytes: Array(text.utf8)) == SchemaParser.parse(text))
    }
}
