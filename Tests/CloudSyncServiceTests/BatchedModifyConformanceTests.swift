import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// One modify call that mixes every kind of save and delete: a storage that batches a call's
/// reads and writes (PostgreSQL) must answer exactly as one that writes record by record.
@Suite("Batched modify calls (conformance)")
struct BatchedModifyConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func oneCallMixingCreationsConflictsUpdatesRecreationsReferencesAndDeletes(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: r)
        let before = try f.save([f.record("old", zone: "Z", r, fields: ["v": .int64(1)]),
                                 f.record("upd", zone: "Z", r, fields: ["v": .int64(1)]),
                                 f.record("gone", zone: "Z", r, fields: ["v": .int64(1)]),
                                 f.record("tomb", zone: "Z", r, fields: ["v": .int64(1)])], r)
        _ = try f.cloud.modifyRecords(ModifyRequest(deletes: [before[3].recordID]), in: r)
        let token = try f.allChanges("Z", since: nil, r).token

        var update = before[1]
        update.fields["v"] = .int64(2)
        let fresh = f.record("new", zone: "Z", r, fields: ["v": .int64(3)])
        let child = f.record("child", zone: "Z", r, type: "Item",
                             fields: ["owner": .reference(Reference(recordID: fresh.recordID, action: .deleteSelf))])
        let result = try f.cloud.modifyRecords(ModifyRequest(
            saves: [fresh, f.record("old", zone: "Z", r, fields: ["v": .int64(9)]), update,
                    f.record("tomb", zone: "Z", r, fields: ["v": .int64(4)]), child],
            deletes: [before[2].recordID]), in: r)
        #expect(result.saved.map(\.recordID.recordName) == ["new", "upd", "tomb", "child"])
        #expect(result.deleted.map(\.recordName) == ["gone"])
        #expect(result.errors.count == 1)
        #expect(result.errors[before[0].recordID]?.code == .serverRecordChanged)
        #expect(result.errors[before[0].recordID]?.serverRecord == before[0])

        let since = try f.allChanges("Z", since: token, r)
        #expect(since.changed.map(\.recordID.recordName) == ["new", "upd", "tomb", "child"])
        #expect(since.changed == result.saved)
        #expect(since.deleted.map(\.recordID.recordName) == ["gone"])
        let fetched = try f.cloud.fetchRecords(result.saved.map(\.recordID) + [before[0].recordID], in: r)
        #expect(try fetched[before[0].recordID]?.get() == before[0], "the refused creation changed nothing")
        for saved in result.saved { #expect(try fetched[saved.recordID]?.get() == saved) }

        // The edge written in the batch cascades.
        let cascade = try f.cloud.modifyRecords(ModifyRequest(deletes: [fresh.recordID]), in: r)
        #expect(Set(cascade.deleted.map(\.recordName)) == ["new", "child"])

        // A merge reads the stored fields of the same call's rows.
        let merged = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("upd", zone: "Z", r, fields: ["w": .int64(5)])],
                                                             policy: .changedKeys), in: r)
        #expect(merged.saved.first?.fields == ["v": .int64(2), "w": .int64(5)])
    }

    @Test(arguments: CloudBackend.allCases)
    func anAtomicZoneFailureLeavesNothingOfAManyRecordCall(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "A", atomic: true)], in: r)
        let taken = try f.save([f.record("taken", zone: "A", r)], r)[0]
        let token = try f.allChanges("A", since: nil, r).token
        let batch = (0..<50).map { f.record("n\($0)", zone: "A", r, fields: ["i": .int64(Int64($0))]) }
        let refused = try f.cloud.modifyRecords(ModifyRequest(saves: batch + [f.record("taken", zone: "A", r)]), in: r)
        #expect(refused.saved.isEmpty)
        #expect(refused.errors.count == 51)
        #expect(refused.errors[taken.recordID]?.code == .serverRecordChanged)
        #expect(refused.errors[batch[0].recordID]?.code == .batchRequestFailed)
        #expect(try f.allChanges("A", since: token, r).changed.isEmpty)
        #expect(cloudError { _ = try f.cloud.fetchRecords([batch[7].recordID], in: r)[batch[7].recordID]?.get() }?.code == .unknownItem)
        // The same creations alone land, all of them.
        #expect(try f.save(batch, r).count == 50)
        #expect(try f.allChanges("A", since: token, r).changed.map(\.recordID.recordName) == batch.map(\.recordID.recordName))
    }

    /// Calls longer than what the PostgreSQL storage sends ahead of the call's end (128 rows),
    /// within the 200 operations of one Web Services request:
    /// rows already sent when an atomic zone refuses the call are undone with it; in a
    /// non-atomic zone every other row lands beside the refusal; subscriptions and shares still
    /// see such calls.
    @Test(arguments: CloudBackend.allCases)
    func callsLongerThanWhatIsSentAhead(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "A", atomic: true), ZoneSpec(name: "N", atomic: false)], in: r)
        let takenA = try f.save([f.record("taken", zone: "A", r)], r)[0]
        let takenN = try f.save([f.record("taken", zone: "N", r)], r)[0]
        let tokenA = try f.allChanges("A", since: nil, r).token
        func many(_ zone: String, from start: Int = 0) -> [Record] {
            (start..<(start + 190)).map { f.record("n\($0)", zone: zone, r, fields: ["i": .int64(Int64($0))]) }
        }
        let refused = try f.cloud.modifyRecords(ModifyRequest(saves: many("A") + [f.record("taken", zone: "A", r)]), in: r)
        #expect(refused.saved.isEmpty)
        #expect(refused.errors.count == 191)
        #expect(refused.errors[takenA.recordID]?.code == .serverRecordChanged)
        #expect(try f.allChanges("A", since: tokenA, r).changed.isEmpty)
        #expect(cloudError { _ = try f.cloud.fetchRecords([RecordID(recordName: "n5", zoneID: r.zoneID("A"))], in: r)
            .values.first?.get() }?.code == .unknownItem, "a row sent ahead was undone")

        let partial = try f.cloud.modifyRecords(ModifyRequest(saves: many("N") + [f.record("taken", zone: "N", r)]), in: r)
        #expect(partial.saved.map(\.recordID.recordName) == many("N").map(\.recordID.recordName))
        #expect(partial.errors.count == 1)
        #expect(partial.errors[takenN.recordID]?.code == .serverRecordChanged)
        let all = try f.allChanges("N", since: nil, r).changed
        #expect(all.count == 191)
        #expect(Set(all.map(\.recordID.recordName)).count == 191)

        // A subscription made between two long calls is notified of the second one.
        let phone = try f.request("alice", device: "phone")
        try f.cloud.registerDevice(DeviceAddress(phone))
        _ = try f.cloud.saveSubscriptions([Subscription(subscriptionID: "n", kind: .recordZone(zoneName: "N"))], in: phone)
        #expect(try f.cloud.takeNotifications(for: DeviceAddress(phone), limit: 1000).isEmpty)
        let again = try f.cloud.modifyRecords(ModifyRequest(saves: many("N", from: 190)), in: r)
        #expect(again.saved.count == 190)
        #expect(try f.allChanges("N", since: nil, r).changed.count == 381)
        let notified = try f.cloud.takeNotifications(for: DeviceAddress(phone), limit: 1000)
        #expect(!notified.isEmpty && notified.allSatisfy { $0.subscriptionID == "n" })
    }

    /// An atomic zone's call that saves and deletes is one unit on every backend: over HTTP it is
    /// one request (saves and deletes used to go as two, so a refused save still let the
    /// deletes through).
    @Test(arguments: CloudBackend.allCases)
    func anAtomicZoneRefusesItsDeletesWithItsSaves(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "A", atomic: true)], in: r)
        let stored = try f.save([f.record("keep", zone: "A", r), f.record("taken", zone: "A", r)], r)
        let refused = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("new", zone: "A", r), f.record("taken", zone: "A", r)],
                                                              deletes: [stored[0].recordID]), in: r)
        #expect(refused.saved.isEmpty && refused.deleted.isEmpty)
        #expect(refused.errors[stored[1].recordID]?.code == .serverRecordChanged)
        #expect(try f.cloud.fetchRecords([stored[0].recordID], in: r)[stored[0].recordID]?.get() == stored[0],
                "the delete was refused with the saves")
        // The same call without the conflict goes through whole.
        let done = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("new", zone: "A", r)], deletes: [stored[0].recordID]), in: r)
        #expect(done.saved.map(\.recordID.recordName) == ["new"] && done.deleted.map(\.recordName) == ["keep"])
    }
}
