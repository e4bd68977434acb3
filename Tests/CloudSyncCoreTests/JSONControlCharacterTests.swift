import CloudSyncCore
import TestSupport
import Testing

/// Issue 25, item 9: JSON output escapes the characters a terminal obeys (C1 controls, bidi
/// controls, line and paragraph separators) as `\uXXXX`, as text output escapes them, in every
/// writer (tree, indented, array of strings, stored fields, records as bytes), and the escaped
/// text parses back to the same string, with this parser and with Python's.
@Suite("JSON output: control characters")
struct JSONControlCharacterTests {
    /// C1 CSI, right-to-left override, the other bidi controls and marks, LS/PS, DEL, ESC.
    static let hostile = "a\u{9B}31m\u{202E}evil\u{202A}\u{202B}\u{202C}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}"
        + "\u{200E}\u{200F}\u{61C}\u{2028}\u{2029}\u{80}\u{9F}\u{7F}\u{1B}z"
    static let escaped = #""a\u009b31m\u202eevil\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069"#
        + #"\u200e\u200f\u061c\u2028\u2029\u0080\u009f\u007f\u001bz""#

    @Test func everyWriterEscapesThem() {
        #expect(JSONValue.string(Self.hostile).serialized() == Self.escaped)
        #expect(JSONValue.string(Self.hostile).prettyPrinted() == Self.escaped)
        #expect(JSONValue.object([(Self.hostile, .null)]).serialized() == "{\(Self.escaped):null}")
        #expect(JSONValue.serializedStrings([Self.hostile]) == "[\(Self.escaped)]")
        let fields = RecordJSON.fieldsText(["title": .string(Self.hostile)])
        #expect(fields == #"{"title":{"value":"# + Self.escaped + #","type":"STRING"}}"#)
        let id = RecordID(recordName: Self.hostile, zoneID: ZoneID(zoneName: "Z", ownerRecordName: ZoneID.currentUserOwner))
        let record = Record(recordID: id, recordType: "Post", fields: ["title": .string(Self.hostile)])
        var bytes: [UInt8] = []
        RecordJSON.writeRecord(record, to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text == RecordJSON.encode(record).serialized())
        #expect(!text.unicodeScalars.contains { ControlCharacters.contains($0) })
    }

    @Test func otherTextIsWrittenAsItIs() {
        for text in ["naïve café 日本語 🙂 ¡ « » ° \u{A0}", "– — ‘ ’ “ ” … € ™ ←", "\u{2000}\u{200B}\u{200D}\u{202F}\u{2060}\u{206A}",
                     "\u{600}\u{61B}\u{61D}\u{627}", "\u{FEFF}\u{10FFFF}"] {
            #expect(JSONValue.string(text).serialized() == "\"\(text)\"")
        }
    }

    /// Every scalar up to U+3000 and a sample above: escaped exactly when `ControlCharacters`
    /// lists it, and parsed back to itself, alone and between other text.
    @Test func eachScalarIsEscapedExactlyWhenListedAndRoundTrips() throws {
        var scalars = (0...0x3000).compactMap(Unicode.Scalar.init)
        scalars += [0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0x10000, 0x1F642, 0x10FFFF].compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            let text = "x" + String(scalar) + "é"
            let json = JSONValue.string(text).serialized()
            let isEscaped = !json.unicodeScalars.contains(scalar) || scalar == "\\" || scalar == "\""
            #expect(isEscaped == (ControlCharacters.contains(scalar) || scalar == "\\" || scalar == "\""),
                    "U+\(String(scalar.value, radix: 16))")
            #expect(try JSONValue.parse(json) == .string(text), "U+\(String(scalar.value, radix: 16))")
        }
        // The lead-byte filter the byte writer uses holds every listed character's first byte.
        for scalar in scalars where ControlCharacters.contains(scalar) {
            #expect(ControlCharacters.mayStart(Array(String(scalar).utf8)[0]))
        }
    }

    /// Python's json module, a parser this project did not write, reads the same strings back.
    @Test func pythonReadsTheEscapedTextBack() throws {
        let strings = [Self.hostile, "plain", "quote \" backslash \\ tab \t newline \n nul \u{0}", "日本語 🙂 \u{10FFFF}"]
        let document = JSONValue.array(strings.map { .string($0) }).serialized()
        let script = "import json,sys\nfor s in json.load(sys.stdin): sys.stdout.write(s.encode('utf-8').hex() + '\\n')\n"
        let result = ProcessSpawner.run("/usr/bin/python3", ["-c", script], environment: ["PATH": "/usr/bin:/bin"],
                                        stdin: document)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = strings.map { $0.utf8.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined() }
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
    }
}
