import CloudSyncCore
import Testing

/// Issue 25, item 10: a key repeated in one object is refused when asked (request bodies), at
/// the byte offset of the repeated key, in small objects (scanned) and large ones (indexed), at
/// any depth; by default the last member still wins (files other programs wrote, stored text).
@Suite("JSON duplicate keys")
struct JSONDuplicateKeyTests {
    func refusal(_ text: String) -> JSONParseError? {
        do throws(JSONParseError) {
            _ = try JSONValue.parse(text, duplicateKeys: .refused)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRepeatedKeyIsRefusedAtItsOffset() {
        let error = refusal(#"{"a":1,"a":2}"#)
        #expect(error?.message == #"duplicate key "a""# && error?.offset == 7)
        #expect(refusal(#"{"x":{"b":[1],"c":2, "b":3}}"#)?.offset == 21)
        #expect(refusal(#"[{"a":1},{"a":2,"z":{"q":1,"q":1}}]"#)?.offset == 27)
        // The same key after unescaping is the same key.
        #expect(refusal(#"{"ab":1,"a\u0062":2}"#)?.message == #"duplicate key "ab""#)
        // A key is shown as JSON writes it: controls escaped.
        #expect(refusal("{\"\\u009b\":1,\"\\u009b\":2}")?.message == #"duplicate key "\u009b""#)
        #expect(refusal(#"{"a":1,"b":{"a":2},"c":[{"a":3}]}"#) == nil, "the same key in different objects")
    }

    @Test func largeObjectsAreCheckedThroughTheirIndex() {
        for keys in [15, 16, 17, 1_000] {
            var text = "{" + (0..<keys).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
            #expect(refusal(text + "}") == nil)
            let offset = text.utf8.count + 1
            text += ",\"k\(keys / 2)\":0}"
            let error = refusal(text)
            #expect(error?.message == "duplicate key \"k\(keys / 2)\"" && error?.offset == offset, "\(keys) keys")
        }
    }

    @Test func byDefaultTheLastValueWins() throws {
        #expect(try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#) == .object([("a", .int(3)), ("b", .int(2))]))
        #expect(try JSONValue.parse(bytes: Array(#"{"a":1,"a":2}"#.utf8), duplicateKeys: .lastWins) == .object([("a", .int(2))]))
    }
}
