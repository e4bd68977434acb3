@testable import CloudSyncCore
import Testing

/// Issue 17 item 10: objects with many keys parsed in linear time. The parser counts the key
/// comparisons and look-ups it makes to find repeated keys; a bounded number per key means no
/// O(n) scan per key (the old parser made n²/2).
@Suite("JSON object scaling")
struct JSONObjectScalingTests {
    private func object(keys: Int, repeatingFrom repeatStart: Int? = nil) -> [UInt8] {
        var text = "{"
        for key in 0..<keys {
            if key > 0 { text += "," }
            text += "\"k\(key)\":\(key)"
        }
        if let repeatStart {
            for key in repeatStart..<keys { text += ",\"k\(key)\":-\(key)" }
        }
        return Array((text + "}").utf8)
    }

    private func probes(_ bytes: [UInt8]) throws -> (value: JSONValue, probes: Int) {
        var parser = JSONByteParser(bytes: bytes)
        let value = try parser.parseValue(depth: 0)
        return (value, parser.keyProbes)
    }

    @Test func keyLookupsPerKeyAreBounded() throws {
        let perKey = JSONMemberIndex.linearLimit + 1
        for keys in [10_000, 40_000] {
            let (value, count) = try probes(object(keys: keys))
            #expect(value.objectValue?.count == keys)
            #expect(count <= perKey * keys, "\(count) probes for \(keys) keys")
        }
        let small = try probes(object(keys: 10_000)).probes
        let large = try probes(object(keys: 40_000)).probes
        #expect(large <= 4 * small + 100)
    }

    @Test func repeatedKeysKeepFirstPositionAndLastValue() throws {
        for keys in [3, JSONMemberIndex.linearLimit, JSONMemberIndex.linearLimit + 1, 100] {
            let (value, count) = try probes(object(keys: keys, repeatingFrom: keys / 2))
            let pairs = try #require(value.objectValue)
            #expect(pairs.map(\.0) == (0..<keys).map { "k\($0)" })
            #expect(pairs.map(\.1) == (0..<keys).map { .int($0 < keys / 2 ? Int64($0) : -Int64($0)) })
            #expect(count <= (JSONMemberIndex.linearLimit + 1) * (keys + keys / 2 + 1))
        }
    }

    @Test func largeObjectsCompareByMembersInAnyOrder() throws {
        let forward = try JSONValue.parse(bytes: object(keys: 5_000))
        let pairs = try #require(forward.objectValue)
        #expect(JSONValue.object(pairs.reversed()) == forward)
        var changed = pairs
        changed[4_000].1 = .int(-1)
        #expect(JSONValue.object(changed) != forward)
        var renamed = pairs
        renamed[10].0 = "other"
        #expect(JSONValue.object(renamed) != forward)
    }

    @Test func textsOverTheSizeLimitAreRefused() throws {
        var huge = [UInt8](repeating: 0x20, count: JSONByteParser.maxBytes + 1)
        huge[0] = UInt8(ascii: "1")
        #expect(throws: JSONParseError(message: "the text is larger than 64 MiB", offset: 0)) { try JSONValue.parse(bytes: huge) }
        huge.removeLast()
        #expect(try JSONValue.parse(bytes: huge) == .int(1))
    }
}
