@testable import CloudSyncCore
import Testing

@Suite("RecordJSON: fields as stored text, in one pass")
struct RecordJSONTextTests {
    static let zone = ZoneID(zoneName: "Z", ownerRecordName: "_owner")
    static let every: [String: FieldValue] = [
        "s": .string("plain"),
        "escaped": .string("quote \" backslash \\ tab \t newline \n bell \u{7} del \u{7F} é ✓ 😀"),
        "empty": .string(""),
        "i": .int64(-9_223_372_036_854_775_808),
        "big": .int64(9_007_199_254_740_993),
        "d": .double(3.25),
        "whole": .double(2),
        "tiny": .double(1e-300),
        "neg": .double(-0.5),
        "t": .timestamp(1_700_000_000_123),
        "b": .bytes([0, 1, 2, 254, 255]),
        "noBytes": .bytes([]),
        "e": .encryptedBytes(Array("ciphertext".utf8)),
        "ref": .reference(Reference(recordID: RecordID(recordName: "r1", zoneID: zone), action: .deleteSelf)),
        "loc": .location(Location(latitude: 52.5, longitude: 13.4, horizontalAccuracy: 5, verticalAccuracy: 3, altitude: 34,
                                  speed: 1.5, course: 90, timestamp: 1_700_000_000_000)),
        "bareLoc": .location(Location(latitude: -1, longitude: 2)),
        "asset": .asset(AssetReference(checksum: "abc123", size: 42)),
        "strings": .list(.string, [.string("a"), .string("b\"c")]),
        "ints": .list(.int64, [.int64(1), .int64(-2)]),
        "none": .list(.double, []),
        "refs": .list(.reference, [.reference(Reference(recordID: RecordID(recordName: "x", zoneID: zone)))]),
        "CD_editedAt": .timestamp(5),
    ]

    @Test func writesExactlyWhatTheTreeWriterWrites() {
        #expect(RecordJSON.fieldsText(Self.every) == RecordJSON.encode(fields: Self.every).serialized())
        #expect(RecordJSON.fieldsText([:]) == "{}")
        for (name, value) in Self.every {
            #expect(RecordJSON.fieldsText([name: value]) == RecordJSON.encode(fields: [name: value]).serialized(), "\(name)")
        }
    }

    @Test func readsBackEveryFieldType() throws {
        let text = RecordJSON.fieldsText(Self.every)
        #expect(try RecordJSON.decodeFields(bytes: Array(text.utf8)) == Self.every)
        var parser = JSONByteParser(bytes: Array(text.utf8))
        #expect(try parser.parseStoredFields() == Self.every, "the stored shape takes the one-pass path")
    }

    /// Both paths on the same text: equal fields, or equal errors.
    func agree(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var general: [String: FieldValue]?, generalError = ""
        do {
            general = try RecordJSON.decodeFields(JSONValue.parse(text))
        } catch {
            generalError = String(describing: error)
        }
        var onePass: [String: FieldValue]?, onePassError = ""
        do {
            onePass = try RecordJSON.decodeFields(bytes: Array(text.utf8))
        } catch {
            onePassError = String(describing: error)
        }
        #expect(onePass == general, "\(text)", sourceLocation: sourceLocation)
        #expect(onePassError == generalError, "\(text)", sourceLocation: sourceLocation)
    }

    @Test func agreesWithTheGeneralPathOnOtherShapes() {
        agree(#"{"a":{"type":"STRING","value":"type first"}}"#)
        agree(#" { "a" : { "value" : 5 } , "b" : { "value" : [1.5, 2] } } "#)
        agree(#"{"a":{"value":"x","type":"STRING","note":{"nested":[1,2,{"k":null}]}}}"#)
        agree(#"{"a":{"value":"x","type":"string"}}"#)
        agree(#"{"a":{"value":"x"},"a":{"value":7}}"#)
        agree(#"{"a":{"value":"x","value":"y","type":"STRING"}}"#)
        agree(#"{"a":{"value":{"recordName":"r"}}}"#)
        agree(#"{"a":{"value":{"latitude":1,"longitude":2}}}"#)
        agree(#"{"a":{"value":"\u00e9\ud83d\ude00","type":"STRING"}}"#)
        agree(#"{"\u0061":{"value":1,"type":"INT64"}}"#)
        // "value" and "type" spelled with escapes, alone and next to the plain spelling.
        agree(#"{"a":{"valu\u0065":5}}"#)
        agree(#"{"a":{"value":1,"valu\u0065":2,"type":"INT64"}}"#)
        agree(#"{"a":{"\u0074ype":"STRING","value":"x"}}"#)
        agree(#"{"a":{"value":"x","type":"INT64","\u0074ype":"STRING"}}"#)
        agree("{}")
    }

    @Test func givesTheGeneralPathsErrors() {
        for text in [#""#, #"["#, #"[]"#, #"{"a":1}"#, #"{"a":{"type":"STRING"}}"#, #"{"a":{"value":1,"type":"NOPE"}}"#,
                     #"{"a":{"value":1,"type":7}}"#, #"{"a":{"value":"x","type":"INT64"}}"#, #"{"1bad":{"value":1}}"#,
                     #"{"a":{"value":[]}}"#, #"{"a":{"value":true}}"#, #"{"a":{"value":"!!","type":"BYTES"}}"#,
                     #"{"a":{"value":1,"type":"STRING"}} trailing"#, #"{"a":{"value":1,}"#, #"{"a":{"value":1}"#,
                     #"{"a":{"value":1e999,"type":"DOUBLE"}}"#, #"{"a":{"value":"\ud800","type":"STRING"}}"#] {
            agree(text)
        }
    }
}
