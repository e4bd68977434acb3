import CloudSyncCloud
import CloudSyncCore
import Testing
@testable import CloudSyncWebServices

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
}
