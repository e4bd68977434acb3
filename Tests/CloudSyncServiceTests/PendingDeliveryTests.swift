@testable import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// Record changes are announced after their commit (issue 25, item 4): the writer's transaction
/// only queues a `PendingRecordChange`; the subscriptions are evaluated afterwards. A change
/// whose writer died before delivering is delivered by the next reader of any queue.
@Suite("Notifications: pending record changes are delivered after the commit")
struct PendingDeliveryTests {
    typealias W = NotificationConformanceTests.World
    typealias S = SubscriptionConformanceTests

    static let storageBackends: [CloudBackend] = [.sqlite, .memory, .postgres]

    func service(_ w: W) throws -> StorageBackedCloud {
        try #require(w.cloud.capabilities.admin)
    }

    /// What a writer that committed and then died leaves: the change on the pending queue.
    func leavePending(_ service: StorageBackedCloud, _ w: W, _ record: Record, existedBefore: Bool = false) throws {
        let dbID = try #require(try service.read { tx in try service.findDatabase(w.laptop, tx)?.id })
        let change = PendingRecordChange(dbID: dbID, zoneName: "Notes", request: w.laptop, now: 1_700_000_000_000,
                                         events: [RecordEvent(record: record, deleted: false, existedBefore: existedBefore)])
        _ = try service.storage.write { tx in
            try tx.enqueueNotification(to: PendingRecordChange.queue(w.f.container), payload: change.payload,
                                       coalesceKey: nil, now: change.now)
        }
    }

    @Test(arguments: storageBackends)
    func aChangeLeftPendingByADeadWriterReachesTheNextReader(_ backend: CloudBackend) throws {
        let w = try W(backend)
        try w.subscribe([try S.query("notes", keys: ["title"])])
        let service = try service(w)
        var record = w.f.record("crashed", zone: "Notes", w.laptop, fields: ["title": .string("kept")])
        record.system = SystemFields(changeTag: "1", created: ChangeStamp(timestamp: 5, userRecordName: w.laptop.userRecordName, deviceID: "laptop"),
                                     modified: ChangeStamp(timestamp: 5, userRecordName: w.laptop.userRecordName, deviceID: "laptop"))
        try leavePending(service, w, record)
        // Another process (a restarted server) reads the phone's queue.
        let reader = try backend.reopen(w.f)
        let got = try reader.takeNotifications(for: DeviceAddress(w.phone), limit: 10)
        #expect(got.count == 1, "\(got)")
        #expect(got.first?.kind == .query && got.first?.reason == .recordCreated)
        #expect(got.first?.recordID?.recordName == "crashed" && got.first?.recordFields["title"] == .string("kept"))
        #expect(try service.storage.read { tx in try tx.peekNotifications(for: PendingRecordChange.queue(w.f.container), limit: 10) }.isEmpty,
                "delivered once, then gone from the pending queue")
        #expect(try w.take(w.phone).isEmpty, "not delivered twice")
    }

    @Test(arguments: storageBackends)
    func aDamagedPendingChangeIsDroppedAndTheNextOnesStillArrive(_ backend: CloudBackend) throws {
        let w = try W(backend)
        try w.subscribe([S.database("all")])
        let service = try service(w)
        _ = try service.storage.write { tx in
            try tx.enqueueNotification(to: PendingRecordChange.queue(w.f.container), payload: "{\"db\":", coalesceKey: nil, now: 1)
        }
        try w.save("after")
        #expect(try w.take(w.phone).count == 1, "the change after the damaged one is announced")
        #expect(try service.storage.read { tx in try tx.peekNotifications(for: PendingRecordChange.queue(w.f.container), limit: 10) }.isEmpty,
                "the damaged change is dropped (with a warning), not retried forever")
    }

    @Test(arguments: storageBackends)
    func inTheBackgroundTheQueueFillsWithoutAnyReader(_ backend: CloudBackend) throws {
        let w = try W(backend)
        try w.subscribe([try S.query("notes")])
        let service = try service(w)
        service.setPendingDeliveryMode(.background)
        try w.save("bg")
        let phone = DeviceAddress(w.phone)
        var queued = 0
        for _ in 0..<500 where queued == 0 {
            queued = try service.storage.read { tx in try tx.peekNotifications(for: phone, limit: 10) }.count
            if queued == 0 { sleepSeconds(0.02) }
        }
        #expect(queued == 1, "the background thread delivered the change to the phone's queue")
        #expect(try w.take(w.phone).first?.recordID?.recordName == "bg")
    }
}
