import CloudSyncCore
import Testing

@Suite("RecordJSON: records written straight to bytes")
struct RecordJSONBytesTests {
    static let zone = ZoneID(zoneName: "Zone \"q\" é", ownerRecordName: "_owner\\x")
    static let stamp = ChangeStamp(timestamp: 1_700_000_000_123, userRecordName: "_u\n1", deviceID: "dev ✓")

    static var records: [Record] {
        let id = RecordID(recordName: "r\t1", zoneID: zone)
        var system = Record(recordID: id, recordType: "Note \"x\"", fields: RecordJSONTextTests.every)
        system.system = SystemFields(changeTag: "7-9", created: stamp,
                                     modified: ChangeStamp(timestamp: 1, userRecordName: "", deviceID: ""))
        return [system, Record(recordID: id, recordType: "Bare", fields: [:]),
                Record(recordID: id, recordType: "Plain", fields: ["a": .int64(1)])]
    }

    @Test func writesWhatTheTreeWriterWrites() {
        for record in Self.records {
            var out: [UInt8] = []
            RecordJSON.writeRecord(record, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == RecordJSON.encode(record).serialized())
        }
    }

    @Test func storedFieldsTextIsCopiedInAsTheFields() throws {
        for record in Self.records {
            var out: [UInt8] = []
            RecordJSON.writeRecord(record, fieldsText: RecordJSON.fieldsText(record.fields), to: &out)
            #expect(String(decoding: out, as: UTF8.self) == RecordJSON.encode(record).serialized())
        }
        // Text in another (valid) shape is copied as it is, and decodes to the same record.
        let record = Self.records[2]
        var out: [UInt8] = []
        RecordJSON.writeRecord(record, fieldsText: #"{ "a" : { "type": "INT64", "value": 1 } }"#, to: &out)
        #expect(try RecordJSON.decodeRecord(JSONValue.parse(bytes: out)) == record)
    }
}
