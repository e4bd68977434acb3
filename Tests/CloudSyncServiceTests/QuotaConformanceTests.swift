import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// What one account may store and register (issue 25, item 7), on every backend: the storage
/// quota counts record fields and assets; past it growth is QUOTA_EXCEEDED while reads, deletes
/// and shrinking saves go on; device registrations are capped, the one seen longest ago dropped.
@Suite("Quotas and device registrations (conformance)")
struct QuotaConformanceTests {
    /// The service behind the fixture's cloud: the cloud itself, or the HTTP test server's.
    func service(_ f: CloudFixture) throws -> StorageBackedCloud {
        if let service = f.cloud.capabilities.admin { return service }
        return try #require(HTTPTestServers.entries.withLock { $0[f.location] }?.service)
    }

    func note(_ f: CloudFixture, _ name: String, _ request: DatabaseRequest, bytes: Int) -> Record {
        f.record(name, zone: "_defaultZone", request, fields: ["body": .string(String(repeating: "x", count: bytes))])
    }

    @Test(arguments: CloudBackend.allCases)
    func growthPastTheQuotaIsRefusedWhileReadsAndDeletesGoOn(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let server = try service(f)
        server.setQuota(bytes: 10_000)
        defer { server.setQuota(bytes: nil) }
        let alice = try f.request("alice")
        try f.save([note(f, "n1", alice, bytes: 6_000)], alice)
        let used = try server.usage(in: alice)
        #expect(used > 6_000 && used < 6_200, "\(used)")
        let refused = cloudError { try f.save([note(f, "n2", alice, bytes: 6_000)], alice) }
        #expect(refused?.code == .quotaExceeded, "\(String(describing: refused))")
        #expect(try server.usage(in: alice) == used, "a refused call charges nothing")
        #expect(cloudError { _ = try f.cloud.uploadAssets([[UInt8](repeating: 7, count: 5_000)], in: alice) }?.code == .quotaExceeded)
        // Another account has its own quota; reads of the full account go on.
        let bob = try f.request("bob")
        try f.save([note(f, "b1", bob, bytes: 6_000)], bob)
        #expect(try f.cloud.fetchRecords([RecordID(recordName: "n1", zoneID: alice.zoneID("_defaultZone"))], in: alice).count == 1)
        // Over the quota (lowered), a save that shrinks a record and a delete still go through.
        server.setQuota(bytes: 1_000)
        let current = try #require(try f.cloud.fetchRecords([RecordID(recordName: "n1", zoneID: alice.zoneID("_defaultZone"))], in: alice)
            .values.first?.get())
        var smaller = current
        smaller.fields["body"] = .string("short")
        try f.save([smaller], alice)
        #expect(try server.usage(in: alice) < 100)
        _ = try f.cloud.modifyRecords(ModifyRequest(deletes: [current.recordID]), in: alice)
        #expect(try server.usage(in: alice) == 0)
        server.setQuota(bytes: 10_000)
        // An asset is charged once, however often it is uploaded.
        let blob = [UInt8](repeating: 1, count: 4_000)
        _ = try f.cloud.uploadAssets([blob], in: alice)
        _ = try f.cloud.uploadAssets([blob], in: alice)
        #expect(try server.usage(in: alice) == 4_000)
    }

    @Test(arguments: CloudBackend.allCases)
    func publicRecordsAreChargedToTheirCreator(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let server = try service(f)
        let alice = try f.request("alice", .public)
        let bob = try f.request("bob", .public)
        try f.save([note(f, "a-post", alice, bytes: 3_000)], alice)
        try f.save([note(f, "b-post", bob, bytes: 1_000)], bob)
        #expect(try server.usage(in: alice) > 3_000 && server.usage(in: alice) < 3_200)
        #expect(try server.usage(in: bob) > 1_000 && server.usage(in: bob) < 1_200)
        #expect(try server.usage(in: try f.request("alice")) == server.usage(in: alice), "one ledger per account")
    }

    @Test(arguments: CloudBackend.allCases)
    func anAccountKeepsAtMostSixtyFourDevicesTheOldestDropped(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let alice = try f.request("alice")
        let cap = NotificationLimits.maxDevicesPerAccount
        for index in 0..<(cap + 6) {
            try f.cloud.registerDevice(DeviceAddress(container: f.container, userRecordName: alice.userRecordName,
                                                     deviceID: String(format3(index))))
        }
        let devices = try service(f).storage.read { tx in try tx.registeredDevices(container: f.container, owner: alice.userRecordName) }
        #expect(devices.count == cap)
        #expect(!devices.contains("000") && !devices.contains("005"), "the six seen longest ago are gone")
        #expect(devices.contains("006") && devices.contains(format3(cap + 5)))
    }

    func format3(_ number: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, 3 - text.count)) + text
    }
}
