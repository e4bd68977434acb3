import CloudSyncService
import CloudSyncCore
import Testing
@testable import CloudSyncWebProtocol

/// The `records/changes` reply written as bytes is the tree writer's reply, byte for byte.
@Suite struct ChangesReplyBytesTests {
    static let zone = ZoneID(zoneName: "Notes", ownerRecordName: "_alice")

    static func record(_ name: String, _ fields: [String: FieldValue]) -> Record {
        var record = Record(recordID: RecordID(recordName: name, zoneID: zone), recordType: "Note", fields: fields)
        record.system = SystemFields(changeTag: "1-\(name.count)",
                                     created: ChangeStamp(timestamp: 5, userRecordName: "_alice", deviceID: "laptop"),
                                     modified: ChangeStamp(timestamp: 6, userRecordName: "_alice", deviceID: "phone \"2\""))
        return record
    }

    static let changed = [record("a", ["title": .string("Hé \"quoted\""), "n": .int64(3)]), record("b\n", [:]),
                          record("c", ["d": .double(0.5), "l": .list(.string, [.string("x")])])]
    static let deleted = [RecordDeletion(recordID: RecordID(recordName: "gone", zoneID: zone), recordType: "Note")]
    static let token = ServerChangeToken(rawValue: "tok\"en")

    @Test(arguments: [true, false])
    func bytesAreTheTreeReply(_ withStoredText: Bool) {
        let changes = ZoneChanges(changed: Self.changed, deleted: Self.deleted, token: Self.token, moreComing: true,
                                  encodedFields: withStoredText ? Self.changed.map { RecordJSON.fieldsText($0.fields) } : [])
        for keys in [nil, ["title"], []] as [[String]?] {
            let bytes = RecordsCodec.encodeChangesReplyBytes(changes, zoneID: Self.zone, desiredKeys: keys)
            #expect(String(decoding: bytes, as: UTF8.self)
                    == RecordsCodec.encodeChangesReply(changes, zoneID: Self.zone, desiredKeys: keys).serialized(), "\(String(describing: keys))")
        }
    }

    @Test func emptyPagesToo() {
        for (changed, deleted) in [([], []), ([], Self.deleted), (Self.changed, [])] as [([Record], [RecordDeletion])] {
            let changes = ZoneChanges(changed: changed, deleted: deleted, token: Self.token, moreComing: false)
            #expect(String(decoding: RecordsCodec.encodeChangesReplyBytes(changes, zoneID: Self.zone, desiredKeys: nil), as: UTF8.self)
                    == RecordsCodec.encodeChangesReply(changes, zoneID: Self.zone, desiredKeys: nil).serialized())
        }
    }

    /// The client's one-pass reading of a reply gives what the general path gives, plus each
    /// record's fields text.
    @Test func theOnePassReadingIsTheGeneralOne() throws {
        let every: [String: FieldValue] = [
            "s": .string("quote \" backslash \\ tab \t é ✓ 😀"), "i": .int64(-9_223_372_036_854_775_808), "d": .double(1e-300),
            "t": .timestamp(5), "b": .bytes([0, 255]), "e": .encryptedBytes([1]), "asset": .asset(AssetReference(checksum: "ab", size: 2)),
            "ref": .reference(Reference(recordID: RecordID(recordName: "x", zoneID: Self.zone), action: .deleteSelf)),
            "loc": .location(Location(latitude: 1, longitude: 2, altitude: 3)), "list": .list(.int64, [.int64(1)]),
        ]
        let changed = Self.changed + [Self.record("every", every)]
        let changes = ZoneChanges(changed: changed, deleted: Self.deleted, token: Self.token, moreComing: true,
                                  encodedFields: changed.map { RecordJSON.fieldsText($0.fields) })
        let bytes = RecordsCodec.encodeChangesReplyBytes(changes, zoneID: Self.zone, desiredKeys: nil)
        let page = try #require(RecordJSON.decodeChangesPage(bytes: bytes, defaultZone: RecordsCodec.defaultZone))
        let general = try RecordsCodec.decodeChangesReply(JSONValue.parse(bytes: bytes))
        #expect(page.changed == general.changed)
        #expect(page.changed == changed)
        #expect(page.deleted.map(\.recordID) == general.deleted.map(\.recordID))
        #expect(page.deleted.map(\.recordType) == general.deleted.map(\.recordType))
        #expect(page.syncToken == general.token.rawValue)
        #expect(page.moreComing == true)
        for (record, text) in zip(page.changed, page.fieldsTexts) {
            #expect(try RecordJSON.decodeFields(bytes: Array(text.utf8)) == record.fields)
        }
        // Other spacing and member order, a deletion without zone, no system fields.
        let spaced = #" { "moreComing" : false , "records" : [ { "zoneID" : { "zoneName" : "Z" } , "fields" : { "a" : { "value" : 1 , "type" : "INT64" } } , "recordType" : "T" , "recordName" : "n" } , { "recordName" : "d" , "deleted" : true } ] , "syncToken" : "t" } "#
        let other = try #require(RecordJSON.decodeChangesPage(bytes: Array(spaced.utf8), defaultZone: RecordsCodec.defaultZone))
        let otherGeneral = try RecordsCodec.decodeChangesReply(JSONValue.parse(spaced))
        #expect(other.changed == otherGeneral.changed)
        #expect(other.fieldsTexts == [#"{ "a" : { "value" : 1 , "type" : "INT64" } }"#])
        #expect(other.deleted.map(\.recordID) == otherGeneral.deleted.map(\.recordID))
    }

    /// Anything unusual is left to the general path (nil), which decides with its own messages.
    @Test func unusualRepliesTakeTheGeneralPath() {
        for text in [#"{"records":[],"records":[],"syncToken":"t"}"#, #"{"syncToken":"t"}"#, #"{"records":[1],"syncToken":"t"}"#,
                     #"{"records":[{"recordName":"a","recordName":"b","recordType":"T","zoneID":{"zoneName":"Z"}}],"syncToken":"t"}"#,
                     #"{"records":[{"recordName":"d","deleted":true,"zoneID":null}],"syncToken":"t"}"#,
                     #"{"records":[{"recordName":"a","recordType":"T"}],"syncToken":"t"}"#,
                     #"{"records":[{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z"},"fields":{"f":1}}],"syncToken":"t"}"#,
                     #"{"records":[{"recordName":"a","recordType":"T","recordChangeTag":"1","created":{"timestamp":5.0},"zoneID":{"zoneName":"Z"}}],"syncToken":"t"}"#,
                     #"{"records":[{"recordName":"a","recordType":"T","zoneID":{"zoneName":"Z","zoneName":"Y"}}],"syncToken":"t"}"#,
                     #"{"records":[],"syncToken":"t"} x"#, #"{"records":["#, ""] {
            #expect(RecordJSON.decodeChangesPage(bytes: Array(text.utf8), defaultZone: RecordsCodec.defaultZone) == nil, "\(text)")
        }
    }

    /// `records/modify` requests and replies written as bytes are the tree writer's, and the
    /// one-pass reading of a reply is the general one (errors included, through the general path).
    @Test(arguments: [SavePolicy.ifServerRecordUnchanged, .changedKeys, .allKeys])
    func modifyRequestsAndRepliesAsBytes(_ policy: SavePolicy) throws {
        var bare = Self.changed[1]
        bare.system = nil
        let gone = RecordID(recordName: "gone \"q\"", zoneID: Self.zone)
        for request in [ModifyRequest(saves: Self.changed + [bare], deletes: [gone], policy: policy),
                        ModifyRequest(deletes: [gone], policy: policy), ModifyRequest(saves: [bare], policy: policy),
                        ModifyRequest(policy: policy)] {
            #expect(String(decoding: RecordsCodec.encodeModifyBytes(request), as: UTF8.self)
                    == RecordsCodec.encodeModify(request).serialized())
        }
        var result = ModifyResult()
        result.saved = Self.changed
        result.deleted = [gone]
        var withErrors = result
        withErrors.errors[RecordID(recordName: "b", zoneID: Self.zone)] = CloudError(.serverRecordChanged, "changed", serverRecord: Self.changed[0])
        withErrors.errors[RecordID(recordName: "a", zoneID: Self.zone)] = CloudError(.unknownItem, "gone")
        for value in [result, withErrors, ModifyResult()] {
            for keys in [nil, ["title"]] as [[String]?] {
                let bytes = RecordsCodec.encodeModifyReplyBytes(value, desiredKeys: keys, uuid: "u-1")
                #expect(String(decoding: bytes, as: UTF8.self)
                        == RecordsCodec.encodeModifyReply(value, desiredKeys: keys, uuid: "u-1").serialized())
                let fast = try RecordsCodec.decodeModifyReply(bytes: bytes)
                let general = try RecordsCodec.decodeModifyReply(JSONValue.parse(bytes: bytes))
                #expect(fast.saved == general.saved)
                #expect(fast.deleted == general.deleted)
                #expect(fast.errors.mapValues(\.code) == general.errors.mapValues(\.code))
            }
        }
        #expect(throws: CloudError.self) { try RecordsCodec.decodeModifyReply(bytes: Array("not json".utf8)) }
    }
}
