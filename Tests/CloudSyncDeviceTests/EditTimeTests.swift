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
