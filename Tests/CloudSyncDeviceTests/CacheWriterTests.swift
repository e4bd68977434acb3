import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// The cache is written many rows per statement: every row lands, in order, across statement
/// boundaries, and a record named twice ends as its last version.
@Suite struct CacheWriterTests {
    @Test func aPageOfManyRecordsLandsWholeAndTheLastVersionWins() throws {
        let dir = TemporaryDirectory("cache-writer")
        let store = try DeviceStore(path: dir.path + "/device.sqlite")
        let scope = CacheScope(container: "iCloud.com.example.Cache", scope: .private)
        let zone = ZoneID(zoneName: "Z", ownerRecordName: "_owner")
        func record(_ n: Int, _ v: Int64) -> Record {
            let stamp = ChangeStamp(timestamp: 1_000 + v, userRecordName: "_owner", deviceID: "d\(n)")
            return Record(recordID: RecordID(recordName: "r\(1000 + n)", zoneID: zone), recordType: "Note",
                          fields: ["n": .int64(Int64(n)), "v": .int64(v), "s": .string(String(repeating: "x", count: n))],
                          system: SystemFields(changeTag: "t\(n)-\(v)", created: stamp, modified: stamp))
        }
        // 70 records (two full statements of 32 and a short one), record 5 twice, then 33 more.
        var changed = (0..<70).map { record($0, 1) }
        changed.insert(record(5, 2), at: 40)
        try store.apply(CachePage(zoneID: zone, changed: changed, deleted: [], token: ServerChangeToken(rawValue: "t1")),
                        scope, now: 1)
        let cached = try store.cachedRecords(in: zone, scope)
        #expect(cached.count == 70)
        #expect(cached.map(\.recordID.recordName) == (0..<70).map { "r\(1000 + $0)" })
        for entry in cached {
            let n = Int(entry.recordID.recordName.dropFirst())! - 1000
            let expected = n == 5 ? record(5, 2) : record(n, 1)
            #expect(entry.fields == expected.fields)
            #expect(entry.system == expected.system)
        }
        try store.apply(CachePage(zoneID: zone, changed: (0..<33).map { record($0, 3) }, deleted: [],
                                  token: ServerChangeToken(rawValue: "t2")), scope, now: 2)
        let again = try store.cachedRecords(in: zone, scope)
        #expect(again.count == 70)
        #expect(again.filter { $0.fields["v"] == .int64(3) }.count == 33)
    }
}
