import CloudSyncCore
@testable import CloudSyncDevice
import Testing

/// The edit time rides in the cloud record as `CD_editedAt`; the JSON shortcuts that add it to
/// and remove it from stored field text agree with encoding the fields afresh.
@Suite struct EditTimeTests {
    func json(_ fields: [String: FieldValue]) -> String { RecordJSON.encode(fields: fields).serialized() }

    @Test func addingAndRemovingTheEntryMatchesEncodingAfresh() throws {
        let cases: [[String: FieldValue]] = [
            [:],
            ["a": .int64(1)],
            ["AAA": .string("first"), "zz": .double(2.5)],
            ["title": .string(#"looks like "CD_editedAt":{"value":7,"type":"TIMESTAMP"}, a key"#)],
            ["B": .int64(1), "CD_a": .int64(2), "CE": .int64(3), "x": .timestamp(9)],
        ]
        for fields in cases {
            let with = EditTime.adding(1_700_000_000_123, to: fields)
            #expect(try JSONValue.parse(EditTime.adding(1_700_000_000_123, toJSON: json(fields))) == JSONValue.parse(json(with)))
            #expect(EditTime.removing(1_700_000_000_123, fromJSON: json(with)) == json(fields))
            #expect(EditTime.removing(42, fromJSON: json(with)) == nil, "another edit time is not removed")
        }
    }

    /// The byte-level shortcuts against the plain string forms they replaced (kept here as the
    /// reference), on generated texts: the entry first, in the middle, last, alone, twice, next
    /// to look-alikes, with another time, and malformed texts.
    @Test func theShortcutsAgreeWithThePlainStringForms() {
        func entryText(_ edited: Int64) -> String { String(decoding: EditTime.entryBytes(edited), as: UTF8.self) }
        func referenceAdding(_ edited: Int64, _ json: String) -> String {
            guard json != "{}", json.hasPrefix("{") else { return "{" + entryText(edited) + "}" }
            return "{" + entryText(edited) + "," + json.dropFirst()
        }
        func referenceRemoving(_ edited: Int64, _ json: String) -> String? {
            let entry = entryText(edited)
            if json == "{" + entry + "}" { return "{}" }
            for (pattern, replacement) in [("{" + entry + ",", "{"), ("," + entry + ",", ","), ("," + entry + "}", "}")] {
                if let range = json.utf8.firstRange(of: pattern.utf8) {
                    return String(decoding: json.utf8[..<range.lowerBound] + Array(replacement.utf8) + json.utf8[range.upperBound...],
                                  as: UTF8.self)
                }
            }
            return nil
        }
        let entry = entryText(77), other = entryText(78)
        let pieces = [entry, other, #""a":1"#, #""ü":"é""#, #""CD_editedAt":1"#, "{" + entry + "}", entry + "x"]
        var texts = ["", "{", "}", "{}", "{x", "{ }", "{" + entry + "}", "{" + entry, entry, "{" + entry + "," + entry + "}"]
        var state: UInt64 = 5
        for _ in 0..<400 {
            var parts: [String] = []
            for _ in 0..<(Int(state % 4) + 1) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                parts.append(pieces[Int((state >> 33) % UInt64(pieces.count))])
            }
            texts.append("{" + parts.joined(separator: ",") + "}")
        }
        for text in texts {
            #expect(EditTime.adding(77, toJSON: text) == referenceAdding(77, text), "\(text)")
            #expect(EditTime.removing(77, fromJSON: text) == referenceRemoving(77, text), "\(text)")
        }
    }

    @Test func splitTakesTheFieldElseTheCloudsModificationTime() {
        let stamp = ChangeStamp(timestamp: 500, userRecordName: "_u", deviceID: "d")
        var record = Record(recordID: RecordID(recordName: "r", zoneID: ZoneID(zoneName: "Z", ownerRecordName: "_u")),
                            recordType: "Note", fields: ["v": .int64(1)],
                            system: SystemFields(changeTag: "t", created: stamp, modified: stamp))
        #expect(EditTime.split(record).edited == 500)
        #expect(EditTime.split(record).record.fields == ["v": .int64(1)])
        record.fields[EditTime.field] = .timestamp(400)
        #expect(EditTime.split(record).edited == 400)
        #expect(EditTime.split(record).record.fields == ["v": .int64(1)])
    }
}
