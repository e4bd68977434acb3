import CloudSyncService
import CloudSyncCore
import Testing

@Suite("Modify with the fields already encoded (conformance)")
struct EncodedFieldsConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func encodedFieldsReadBackAsTheRecordsFields(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        let fields: [String: FieldValue] = ["title": .string("Hé \"quoted\""), "n": .int64(-3), "at": .timestamp(7),
                                            "blob": .bytes([0, 255]), "tags": .list(.string, [.string("a")])]
        let record = f.record("n1", zone: "_defaultZone", r, fields: fields)
        // Stored text in another key order and spacing: only what it decodes to counts.
        let text = #"{ "title": {"type": "STRING", "value": "Hé \"quoted\""}, "n": {"value": -3, "type": "INT64"},"#
            + #" "at": {"value": 7, "type": "TIMESTAMP"}, "blob": {"value": "AP8=", "type": "BYTES"},"#
            + #" "tags": {"value": ["a"], "type": "STRING_LIST"} }"#
        #expect(try RecordJSON.decodeFields(bytes: Array(text.utf8)) == fields, "the fixture is right")
        let result = try f.cloud.modifyRecords(ModifyRequest(saves: [record], encodedFields: [record.recordID: text]), in: r)
        #expect(result.errors.isEmpty)
        #expect(result.saved.first?.fields == fields)
        let fetched = try f.cloud.fetchRecords([record.recordID], in: r)[record.recordID]
        #expect(try fetched?.get().fields == fields)
    }

    @Test(arguments: CloudBackend.allCases)
    func mergedFieldsAreStoredNotTheEncodedOnes(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        try f.save([f.record("n1", zone: "_defaultZone", r, fields: ["a": .int64(1)])], r)
        let change = f.record("n1", zone: "_defaultZone", r, fields: ["b": .int64(2)])
        let text = RecordJSON.fieldsText(change.fields)
        let result = try f.cloud.modifyRecords(ModifyRequest(saves: [change], policy: .changedKeys,
                                                             encodedFields: [change.recordID: text]), in: r)
        #expect(result.errors.isEmpty)
        let fetched = try f.cloud.fetchRecords([change.recordID], in: r)[change.recordID]
        #expect(try fetched?.get().fields == ["a": .int64(1), "b": .int64(2)], "changedKeys merges with the stored record")
    }

    @Test(arguments: CloudBackend.allCases)
    func fetchedChangesCarryTextThatDecodesToTheirFields(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: r)
        try f.save([f.record("a", zone: "Z", r, fields: ["s": .string("x"), "n": .int64(1)]),
                    f.record("b", zone: "Z", r, fields: ["loc": .location(Location(latitude: 1, longitude: 2))])], r)
        _ = try f.cloud.modifyRecords(ModifyRequest(deletes: [RecordID(recordName: "b", zoneID: r.zoneID("Z"))]), in: r)
        try f.save([f.record("c", zone: "Z", r)], r)
        let page = try f.cloud.fetchZoneChanges("Z", since: nil, limit: 100, in: r)
        #expect(page.encodedFields.isEmpty || page.encodedFields.count == page.changed.count)
        for (record, text) in zip(page.changed, page.encodedFields) {
            guard let text else { continue }
            #expect(try RecordJSON.decodeFields(bytes: Array(text.utf8)) == record.fields, "\(record.recordID.recordName)")
        }
        #expect(page.changed.map(\.recordID.recordName).sorted() == ["a", "c"])
    }
}
