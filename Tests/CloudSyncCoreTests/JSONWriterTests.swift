import CloudSyncCore
import Testing

@Suite("JSON writer")
struct JSONWriterTests {
    @Test func scalars() {
        #expect(JSONValue.null.serialized() == "null")
        #expect(JSONValue.bool(true).serialized() == "true")
        #expect(JSONValue.bool(false).serialized() == "false")
        #expect(JSONValue.int(-42).serialized() == "-42")
        #expect(JSONValue.int(.min).serialized() == "-9223372036854775808")
        #expect(JSONValue.double(1.5).serialized() == "1.5")
        #expect(JSONValue.double(2).serialized() == "2.0")
        #expect(JSONValue.double(-0.0).serialized() == "-0.0")
        #expect(JSONValue.double(1e20).serialized() == "1e+20")
        #expect(JSONValue.double(.infinity).serialized() == "null")
        #expect(JSONValue.double(-.infinity).serialized() == "null")
        #expect(JSONValue.double(.nan).serialized() == "null")
    }

    @Test func stringEscapes() {
        #expect(JSONValue.string("a\"b\\c").serialized() == #""a\"b\\c""#)
        #expect(JSONValue.string("\n\r\t\u{8}\u{C}").serialized() == #""\n\r\t\b\f""#)
        #expect(JSONValue.string("\u{0}\u{1}\u{1F}\u{7F}").serialized() == #""\u0000\u0001\u001f\u007f""#)
        // Slash and non-ASCII are written as they are.
        #expect(JSONValue.string("a/b é 😀").serialized() == "\"a/b é 😀\"")
    }

    /// The array-of-strings writer against the general one, escapes and UTF-8 included.
    @Test func anArrayOfStringsIsWrittenAsTheGeneralWriterWritesIt() {
        for strings in [[], [""], ["a"], ["title", "count", "CD_editedAt"], ["a\"b\\c", "\n\u{0}\u{7F}", "é 😀", "/"]] {
            #expect(JSONValue.serializedStrings(strings) == JSONValue.array(strings.map { .string($0) }).serialized())
        }
        #expect(JSONValue.serializedStrings(["x", "y"]) == #"["x","y"]"#)
    }

    @Test func compactAndPretty() {
        let value = JSONValue.object([("a", .array([.int(1), .object([])])), ("b", .object([("c", .null)])), ("d", .array([]))])
        #expect(value.serialized() == #"{"a":[1,{}],"b":{"c":null},"d":[]}"#)
        #expect(value.prettyPrinted() == """
            {
              "a": [
                1,
                {}
              ],
              "b": {
                "c": null
              },
              "d": []
            }
            """)
    }

    @Test func roundTrip() throws {
        let value = JSONValue.object([
            ("string", .string("quote \" backslash \\ newline \n tab \t nul \u{0} del \u{7F} é 😀 \u{10FFFF}")),
            ("ints", .array([.int(0), .int(-1), .int(.max), .int(.min)])),
            ("doubles", .array([.double(0.1), .double(-2.5e-300), .double(1.7976931348623157e308), .double(.leastNonzeroMagnitude)])),
            ("nested", .array([.array([.array([.object([("k", .bool(false))])])])])),
            ("null", .null),
            ("", .string("")),
        ])
        let compact = try JSONValue.parse(value.serialized())
        #expect(compact == value)
        #expect(compact.serialized() == value.serialized())
        #expect(try JSONValue.parse(value.prettyPrinted()) == value)
    }

    @Test func doublesRoundTripExactly() throws {
        for d in [0.1, 1.0 / 3.0, 123_456_789.123_456_78, 1e-7, Double.leastNonzeroMagnitude, 2.2250738585072014e-308, -1.5e300] {
            guard case .double(let back) = try JSONValue.parse(JSONValue.double(d).serialized()) else {
                Issue.record("\(d) did not come back as a double")
                continue
            }
            #expect(back.bitPattern == d.bitPattern, "\(d)")
        }
    }
}
