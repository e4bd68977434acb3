import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// How listeners are woken: promptly for a new notification of their device, not for a coalesced
/// change, not for other devices; across connections (processes) to one cloud file.
@Suite("Notification waiters")
struct NotificationWaiterTests {
    typealias World = NotificationConformanceTests.World
    typealias S = SubscriptionConformanceTests

    @Test(arguments: CloudBackend.allCases)
    func aWaiterWakesForNewNotificationsOfItsDeviceOnly(_ backend: CloudBackend) throws {
        let w = try World(backend)
        try w.subscribe([S.database("db")])
        let waiter = try w.cloud.makeNotificationWaiter(for: DeviceAddress(w.phone))
        let precise = waiter.mechanism == "inotify"
        if precise { #expect(waiter.wait(timeout: 0.05) == false, "nothing happened") }

        // A change made through another connection, as another process would.
        let other = try backend.reopen(w.f)
        let record = w.f.record("a", zone: "Notes", w.laptop)
        _ = try other.modifyRecords(ModifyRequest(saves: [record], policy: .allKeys), in: w.laptop)
        let start = NotificationClock.now()
        #expect(waiter.wait(timeout: 10) == true)
        #expect(NotificationClock.now() - start < 5)
        if precise {
            // Coalesced into the unread notification: nothing new, no wake-up.
            _ = try other.modifyRecords(ModifyRequest(saves: [record], policy: .allKeys), in: w.laptop)
            #expect(waiter.wait(timeout: 0.1) == false)
            // The laptop's own queue gets nothing from its own change, and the phone's waiter is
            // not woken by changes the phone makes.
            _ = try other.modifyRecords(ModifyRequest(saves: [w.f.record("b", zone: "Notes", w.phone)], policy: .allKeys),
                                        in: w.phone)
            #expect(waiter.wait(timeout: 0.1) == false)
        }
        #expect(try w.take(w.phone).count == 1)
        _ = try other.modifyRecords(ModifyRequest(saves: [record], policy: .allKeys), in: w.laptop)
        #expect(waiter.wait(timeout: 10) == true, "read, so the next change makes a new notification and a wake-up")
    }

    @Test func theWakeUpFileIsRecreatedWhenDeleted() throws {
        let dir = TemporaryDirectory("wake")
        let cloud = try SQLiteCloud(path: dir.file("cloud.sqlite"))
        let alice = try cloud.account(named: "alice")
        let phone = DeviceAddress(container: "c", userRecordName: alice.userRecordName, deviceID: "phone/..")
        let files = NotificationWakeUpFiles(cloudPath: dir.file("cloud.sqlite"))
        let waiter = try cloud.makeNotificationWaiter(for: phone)
        try #require(waiter.mechanism == "inotify")
        let path = files.path(for: phone)
        #expect(path.hasPrefix(files.directory + "/") && !path.dropFirst(files.directory.count + 1).contains("/"),
                "device names are encoded into one file name: \(path)")
        #expect(access(path, F_OK) == 0)
        files.post(phone)
        #expect(waiter.wait(timeout: 5) == true)
        #expect(waiter.wait(timeout: 0.05) == false)
        unlink(path)
        #expect(waiter.wait(timeout: 5) == true, "a deleted file may have hidden a wake-up")
        var rounds = 0
        while access(path, F_OK) != 0 && rounds < 5 {
            #expect(waiter.wait(timeout: 0.05) == true, "re-creating and watching again reports a possible wake-up")
            rounds += 1
        }
        #expect(access(path, F_OK) == 0, "re-created")
        _ = waiter.wait(timeout: 0.05)
        files.post(phone)
        #expect(waiter.wait(timeout: 5) == true)
        // Posting to a device that never listened is harmless.
        files.post(DeviceAddress(container: "c", userRecordName: alice.userRecordName, deviceID: "nobody"))
    }

    @Test func pollingWaiterReportsEveryInterval() {
        let waiter = PollingNotificationWaiter(interval: 0.02)
        #expect(waiter.wait(timeout: 1) == true)
        #expect(waiter.wait(timeout: 0.001) == false)
    }
}
