import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

@Suite("Change tracking (conformance)")
struct ChangeTrackingConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func pagesStreamInCommitOrderWithMoreComing(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        try f.save((0..<25).map { f.record(String(format3($0)), zone: "Z", r) }, r)
        let all = try f.allChanges("Z", since: nil, limit: 10, r)
        #expect(all.pages == 3)
        #expect(all.changed.map(\.recordID.recordName) == (0..<25).map(format3))
        // Nothing new since the final token.
        let none = try f.cloud.fetchZoneChanges("Z", since: all.token, limit: 10, in: r)
        #expect(none.changed.isEmpty && none.deleted.isEmpty && !none.moreComing)
        #expect(none.token == all.token)
    }

    @Test(arguments: CloudBackend.allCases)
    func incrementalFetchReturnsOnlyLatestStateAndTombstones(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        let saved = try f.save([f.record("a", zone: "Z", r, fields: ["v": .int64(1)]), f.record("b", zone: "Z", r)], r)
        let token = try f.allChanges("Z", since: nil, r).token
        var a = saved[0]
        a.fields["v"] = .int64(2)
        a = try f.save([a], r)[0]
        a.fields["v"] = .int64(3)
        a = try f.save([a], r)[0]
        _ = try f.cloud.modifyRecords(ModifyRequest(deletes: [saved[1].recordID]), in: r)
        let delta = try f.allChanges("Z", since: token, r)
        #expect(delta.changed.count == 1)
        #expect(delta.changed[0].fields["v"] == .int64(3))
        #expect(delta.changed[0].changeTag == a.changeTag)
        #expect(delta.deleted == [RecordDeletion(recordID: saved[1].recordID, recordType: "Note")])
    }

    @Test(arguments: CloudBackend.allCases)
    func foreignAndStaleTokensExpire(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "A"), ZoneSpec(name: "B")], in: r)
        try f.save([f.record("x", zone: "A", r)], r)
        let tokenA = try f.allChanges("A", since: nil, r).token
        // A token of another zone.
        #expect(cloudError { _ = try f.cloud.fetchZoneChanges("B", since: tokenA, limit: 10, in: r) }?.code == .changeTokenExpired)
        // A token of an earlier incarnation of the same zone.
        try f.cloud.deleteZones(["A"], purge: false, in: r)
        _ = try f.cloud.saveZones([ZoneSpec(name: "A")], in: r)
        #expect(cloudError { _ = try f.cloud.fetchZoneChanges("A", since: tokenA, limit: 10, in: r) }?.code == .changeTokenExpired)
        // A token from another cloud.
        let other = try backend.make()
        let r2 = try other.request("alice")
        _ = try other.cloud.saveZones([ZoneSpec(name: "A")], in: r2)
        #expect(cloudError { _ = try other.cloud.fetchZoneChanges("A", since: tokenA, limit: 10, in: r2) }?.code == .changeTokenExpired)
        // A database token used as a zone token, and garbage.
        let dbToken = try f.cloud.fetchDatabaseChanges(since: nil, limit: 10, in: r).token
        #expect(cloudError { _ = try f.cloud.fetchZoneChanges("A", since: dbToken, limit: 10, in: r) }?.code == .changeTokenExpired)
        let garbage = ServerChangeToken(rawValue: "not-a-token!")
        #expect(cloudError { _ = try f.cloud.fetchZoneChanges("A", since: garbage, limit: 10, in: r) }?.code == .invalidArguments)
        #expect(cloudError { _ = try f.cloud.fetchDatabaseChanges(since: garbage, limit: 10, in: r) }?.code == .invalidArguments)
    }

    @Test(arguments: CloudBackend.allCases)
    func defaultZoneAndPublicDatabaseHaveNoChangeTracking(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        #expect(cloudError { _ = try f.cloud.fetchZoneChanges("_defaultZone", since: nil, limit: 10, in: r) }?.code == .invalidArguments)
        let p = try f.request("alice", .public)
        #expect(cloudError { _ = try f.cloud.fetchDatabaseChanges(since: nil, limit: 10, in: p) }?.code == .invalidArguments)
    }

    @Test(arguments: CloudBackend.allCases)
    func databaseChangesReportChangedAndDeletedZones(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        var changes = try f.cloud.fetchDatabaseChanges(since: nil, limit: 100, in: r)
        #expect(changes.changedZones.isEmpty && changes.deletedZones.isEmpty)
        let start = changes.token
        _ = try f.cloud.saveZones([ZoneSpec(name: "A"), ZoneSpec(name: "B"), ZoneSpec(name: "C")], in: r)
        changes = try f.cloud.fetchDatabaseChanges(since: start, limit: 100, in: r)
        #expect(changes.changedZones.map(\.zoneName) == ["A", "B", "C"])
        let afterCreate = changes.token
        try f.save([f.record("x", zone: "B", r)], r)
        try f.save([f.record("y", zone: "_defaultZone", r)], r)
        try f.cloud.deleteZones(["A"], purge: false, in: r)
        try f.cloud.deleteZones(["C"], purge: true, in: r)
        changes = try f.cloud.fetchDatabaseChanges(since: afterCreate, limit: 100, in: r)
        #expect(changes.changedZones.map(\.zoneName) == ["B"])
        #expect(changes.deletedZones.map(\.zoneID.zoneName) == ["A", "C"])
        #expect(changes.deletedZones.map(\.reason) == [.deleted, .purged])
        // Paging.
        let paged1 = try f.cloud.fetchDatabaseChanges(since: afterCreate, limit: 1, in: r)
        #expect(paged1.moreComing)
        let paged2 = try f.cloud.fetchDatabaseChanges(since: paged1.token, limit: 10, in: r)
        #expect(!paged2.moreComing)
        #expect(paged1.changedZones.count + paged1.deletedZones.count + paged2.changedZones.count + paged2.deletedZones.count == 3)
    }

    @Test(arguments: CloudBackend.allCases)
    func sequencesHoldAcrossManyWriters(_ backend: CloudBackend) throws {
        // Interleaved writers to one zone (two service instances on the same store where the
        // backend allows it) still yield one gap-free, ordered change stream.
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        let second = try backend.reopen(f)
        var token: ServerChangeToken? = nil
        var seen = 0
        for i in 0..<50 {
            let writer = i % 2 == 0 ? f.cloud : second
            _ = try writer.modifyRecords(ModifyRequest(saves: [f.record("r\(i)", zone: "Z", r)]), in: r)
            let page = try f.cloud.fetchZoneChanges("Z", since: token, limit: 1000, in: r)
            #expect(page.changed.map(\.recordID.recordName) == ["r\(i)"])
            seen += page.changed.count
            token = page.token
        }
        #expect(seen == 50)
    }
}

func format3(_ i: Int) -> String {
    let s = String(i)
    return String(repeating: "0", count: max(0, 3 - s.count)) + s
}
