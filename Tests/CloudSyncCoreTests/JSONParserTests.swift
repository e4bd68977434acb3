import CloudSyncCore
import Testing

private func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONValue.parse(text) }

private func parseError(_ text: String) -> JSONParseError? {
    do {
        _ = try JSONValue.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite("JSON parser")
struct JSONParserTests {
    @Test func scalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("\"x\"") == .string("x"))
        #expect(try parse(" \t\r\n 1 \n") == .int(1))
    }

    @Test func stringEscapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u00C9\u0000""#) == .string("éÉ\u{0}"))
        #expect(try parse("\"é€😀\"") == .string("é€😀"))
        #expect(try parse(#""a\u0022b""#) == .string("a\"b"))
    }

    @Test func surrogatePairs() throws {
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""\uD834\uDD1E""#) == .string("\u{1D11E}"))
        #expect(try parse(#""x\uDBFF\uDFFFy""#) == .string("x\u{10FFFF}y"))
    }

    @Test(arguments: [
        (#""\ud83d""#, "unpaired surrogate"),
        (#""\ud83dx""#, "unpaired surrogate"),
        (#""\ude00""#, "unpaired surrogate"),
        (#""\ud83d\u0041""#, "invalid low surrogate"),
        (#""\u12G4""#, "bad hex digit in \\u escape"),
        (#""\u12""#, "truncated \\u escape"),
        (#""\x""#, "unknown escape '\\x'"),
        ("\"a\u{1}b\"", "control character in string"),
        ("\"a\nb\"", "control character in string"),
        ("\"abc", "unterminated string"),
        ("\"abc\\", "unterminated escape"),
    ])
    func badStrings(text: String, message: String) {
        #expect(parseError(text)?.message == message)
    }

    @Test func invalidUTF8IsRefused() throws {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes: [0x22, 0xFF, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes: [0x22, 0xC3, 0x22]) }
        #expect(try JSONValue.parse(bytes: [0x22, 0xC3, 0xA9, 0x22]) == .string("é"))
    }

    @Test func numbers() throws {
        #expect(try parse("0") == .int(0))
        #expect(try parse("-12") == .int(-12))
        #expect(try parse("9223372036854775807") == .int(.max))
        #expect(try parse("-9223372036854775808") == .int(.min))
        // Past Int64 an integer literal becomes a double.
        guard case .double(let big) = try parse("9223372036854775808") else { Issue.record("not a double"); return }
        #expect(big == 9_223_372_036_854_775_808.0)
        #expect(try parse("1.5") == .double(1.5))
        #expect(try parse("-0.25e2") == .double(-25))
        #expect(try parse("1E3") == .double(1000))
        #expect(try parse("1e+3") == .double(1000))
        #expect(try parse("25e-2") == .double(0.25))
        // A fraction or exponent makes a double even when the value is integral.
        guard case .double = try parse("2.0") else { Issue.record("2.0 should stay a double"); return }
    }

    @Test func negativeZero() throws {
        // "-0" is an integer literal, so it becomes the integer 0; "-0.0" keeps its sign.
        guard case .int(let i) = try parse("-0") else { Issue.record("-0 should be an int"); return }
        #expect(i == 0)
        guard case .double(let d) = try parse("-0.0") else { Issue.record("-0.0 should be a double"); return }
        #expect(d == 0 && d.sign == .minus)
    }

    @Test func outOfRangeNumbersAreRefusedNotTurnedIntoInfinity() throws {
        #expect(throws: JSONParseError.self) { try parse("1e400") }
        #expect(throws: JSONParseError.self) { try parse("[-1e400]") }
        #expect(try parse("1e-400") == .double(0))
    }

    @Test(arguments: ["01", "-01", "1.", ".5", "+1", "1e", "1e+", "-", "0x10", "1.e3", "- 1", "NaN", "Infinity", "--1"])
    func badNumbers(text: String) {
        #expect(parseError(text) != nil, "\(text) should not parse")
    }

    @Test(arguments: [
        ("", "unexpected end of input", 0), ("   ", "unexpected end of input", 3),
        ("[1,]", "unexpected character ']'", 3), ("[1 2]", "expected ',' or ']'", 3),
        ("{\"a\" 1}", "expected ':'", 5), ("{\"a\":1,}", "expected a string key", 7),
        ("{a:1}", "expected a string key", 1), ("[1", "unterminated array", 2),
        ("{\"a\":1", "unterminated object", 6), ("tru", "expected 'true'", 3), ("nul", "expected 'null'", 3),
        ("'x'", "unexpected character '''", 0),
    ])
    func structuralErrors(text: String, message: String, offset: Int) {
        let error = parseError(text)
        #expect(error?.message == message)
        #expect(error?.offset == offset)
    }

    @Test(arguments: ["nulls", "[1] x", "{} {}", "1 2", "\"a\"\"b\"", "truefalse", "[]]"])
    func trailingGarbage(text: String) {
        #expect(parseError(text)?.message == "unexpected trailing characters")
    }

    @Test func errorDescriptionNamesTheOffset() {
        #expect(parseError("[1,]")?.description == "invalid JSON at byte 3: unexpected character ']'")
    }

    @Test func nestingLimitIs512() throws {
        func arrays(_ n: Int) -> String { String(repeating: "[", count: n) + String(repeating: "]", count: n) }
        func objects(_ n: Int) -> String {
            String(repeating: "{\"k\":", count: n) + "1" + String(repeating: "}", count: n)
        }
        #expect(parseError(arrays(512)) == nil)
        #expect(parseError(arrays(513))?.message == "nesting too deep")
        #expect(parseError(objects(511)) == nil)
        #expect(parseError(objects(512))?.message == "nesting too deep")
        #expect(parseError(arrays(100_000))?.message == "nesting too deep")
    }

    @Test func duplicateKeysKeepTheLastValueAtTheFirstPosition() throws {
        let value = try parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(value.objectValue?.map(\.0) == ["a", "b"])
        #expect(value["a"] == .int(3))
        #expect(value.serialized() == #"{"a":3,"b":2}"#)
    }

    @Test func objectsKeepKeyOrder() throws {
        let value = try parse(#"{"z":1,"a":{"y":[true,null],"b":"s"}}"#)
        #expect(value.objectValue?.map(\.0) == ["z", "a"])
        #expect(value["a"]?.objectValue?.map(\.0) == ["y", "b"])
        #expect(value["a"]?["y"] == .array([.bool(true), .null]))
        #expect(value["missing"] == nil)
        #expect(JSONValue.int(1)["a"] == nil)
    }

    @Test func emptyContainers() throws {
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([]))
        #expect(try parse("[ ]") == .array([]))
        #expect(try parse("{ }") == .object([]))
        #expect(try parse("[[],{}]") == .array([.array([]), .object([])]))
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test func equalityTreatsIntegralNumbersAlikeAndIgnoresKeyOrder() {
        #expect(JSONValue.int(1) == .double(1.0))
        #expect(JSONValue.double(1.5) != .int(1))
        #expect(JSONValue.object([("a", .int(1)), ("b", .int(2))]) == .object([("b", .int(2)), ("a", .int(1))]))
        #expect(JSONValue.object([("a", .int(1))]) != .object([("a", .int(1)), ("b", .int(2))]))
        #expect(JSONValue.bool(true) != .int(1))
        #expect(JSONValue.null != .string("null"))
        #expect(Set<JSONValue>([.int(1), .double(1.0)]).count == 1)
    }

    @Test func accessors() {
        #expect(JSONValue.int(7).int64Value == 7)
        #expect(JSONValue.double(3.0).int64Value == 3)
        #expect(JSONValue.double(3.5).int64Value == nil)
        #expect(JSONValue.double(1e19).int64Value == nil)
        #expect(JSONValue.string("7").int64Value == nil)
        #expect(JSONValue.int(2).doubleValue == 2.0)
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.int(0).boolValue == nil)
        #expect(JSONValue.array([.null]).arrayValue == [.null])
        #expect(JSONValue.null.objectValue == nil)
        #expect([JSONValue.null, .bool(true), .int(1), .double(1), .string(""), .array([]), .object([])].map(\.kindName) ==
            ["null", "boolean", "number", "number", "string", "array", "object"])
    }
}
