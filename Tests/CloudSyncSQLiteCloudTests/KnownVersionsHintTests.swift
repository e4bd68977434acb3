import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import TestSupport
import Testing

/// The versions a caller holds, passed to `fetchZoneChanges(…holding:…)` (issue 16): the embedded
/// cloud leaves them hollow (fields not decoded) and changes nothing else of the page.
@Suite("Known versions hint")
struct KnownVersionsHintTests {
    final class Known: KnownRecordVersions {
        var tags: [String: String] = [:]
        var asked = 0
        func holds(zone: String, name: String, tag: String) -> Bool {
            asked += 1
            return zone == "Z" && tags[name] == tag
        }
    }

    @Test func heldVersionsComeBackHollowAndTheRestWhole() throws {
        let dir = TemporaryDirectory("known-versions")
        let cloud = try SQLiteCloud(path: dir.file("cloud.sqlite"))
        let request = DatabaseRequest(container: "iCloud.com.example.Known", scope: .private,
                                      userRecordName: try cloud.account(named: "alice").userRecordName, deviceID: "d")
        _ = try cloud.saveZones([ZoneSpec(name: "Z")], in: request)
        let saves = (0..<5).map { Record(recordID: RecordID(recordName: "r\($0)", zoneID: request.zoneID("Z")), recordType: "T",
                                          fields: ["v": .int64(Int64($0))]) }
        let saved = try cloud.modifyRecords(ModifyRequest(saves: saves, policy: .allKeys), in: request).saved
        _ = try cloud.modifyRecords(ModifyRequest(saves: [], deletes: [saves[4].recordID], policy: .allKeys), in: request)
        let known = Known()
        for record in saved where ["r0", "r2", "r4"].contains(record.recordID.recordName) {
            known.tags[record.recordID.recordName] = record.system?.changeTag
        }
        known.tags["r3"] = "another-tag"
        let plain = try cloud.fetchZoneChanges("Z", since: nil, limit: 3, in: request)
        let hinted = try cloud.fetchZoneChanges("Z", since: nil, limit: 3, holding: known, in: request)
        #expect(known.asked == 3, "asked once per live record of the page")
        #expect(hinted.token == plain.token && hinted.moreComing == plain.moreComing)
        #expect(hinted.changed.map(\.recordID) == plain.changed.map(\.recordID))
        #expect(hinted.changed.map { $0.system?.changeTag } == plain.changed.map { $0.system?.changeTag })
        let fields = Dictionary(uniqueKeysWithValues: hinted.changed.map { ($0.recordID.recordName, $0.fields) })
        #expect(fields["r0"] == [:] && fields["r2"] == [:], "held at their tags: hollow")
        #expect(fields["r1"] == ["v": .int64(1)])
        #expect(hinted.encodedFields.count == hinted.changed.count)
        #expect(hinted.encodedFields[0] == nil && hinted.encodedFields[1] != nil)
        // The rest of the feed, with the hint: r3's tag differs (whole), r4 is a deletion.
        let rest = try cloud.fetchZoneChanges("Z", since: hinted.token, limit: 3, holding: known, in: request)
        #expect(rest.changed.map(\.fields) == [["v": .int64(3)]])
        #expect(rest.deleted.map(\.recordID.recordName) == ["r4"])
        // Outside the hint nothing is hollow.
        #expect(try cloud.fetchZoneChanges("Z", since: nil, limit: 3, in: request).changed.allSatisfy { !$0.fields.isEmpty })
        // The wrappers pass the versions on: the parameter crosses them.
        let wrapped = RetryingCloud(wrapping: FaultInjectingCloud(wrapping: cloud, plan: FaultPlan()))
        let through = try wrapped.fetchZoneChanges("Z", since: nil, limit: 3, holding: known, in: request)
        #expect(through.changed.map(\.fields) == hinted.changed.map(\.fields))
    }
}
