import CloudSyncCloud
import CloudSyncCore
@testable import CloudSyncDevice
import Glibc
import TestSupport
import Testing

/// Fails the `failAt`-th modify call (1-based) with a network error, while the push reads its
/// next batch on another thread.
final class FailingModifyCloud: ForwardingCloud, @unchecked Sendable {
    let failAt: Int
    var calls = 0
    init(base: any CloudService, failAt: Int) {
        self.failAt = failAt
        super.init(base: base)
    }
    override func modifyRecords(_ r: ModifyRequest, in d: DatabaseRequest) throws(CloudError) -> ModifyResult {
        calls += 1
        if calls == failAt { throw CloudError(.networkUnavailable, "injected: the network went away") }
        return try base.modifyRecords(r, in: d)
    }
}

@Suite("Background job")
struct BackgroundJobTests {
    @Test func theWorkRunsOnAnotherThreadAndItsValueComesBack() throws {
        let caller = pthread_self()
        let job = BackgroundJob { () throws(CloudError) -> Bool in pthread_equal(pthread_self(), caller) != 0 }
        #expect(try job.join() == false, "the work ran on the caller's thread")
    }

    @Test func theWorksErrorIsThrownByTheJoin() {
        let job = BackgroundJob { () throws(CloudError) -> Int in throw CloudError(.badDatabase, "unreadable") }
        #expect(throws: CloudError.self) { try job.join() }
        do { _ = try job.join(); Issue.record("no error") } catch { #expect(error.code == .badDatabase && error.reason == "unreadable") }
    }

    @Test func aJobDroppedWithoutAJoinIsWaitedFor() {
        final class Flag: @unchecked Sendable { var done = false }
        let flag = Flag()
        do {
            _ = BackgroundJob { () throws(CloudError) -> Void in
                usleep(50_000)
                flag.done = true
            }
        }
        #expect(flag.done, "the job's deinit returned before its thread ended")
    }
}

/// The push reads its next batch while the cloud stores the current one.
@Suite("Synchronizer: the next batch read during the cloud's work")
struct PipelinedPushTests {
    @Test func conflictsInManyBatchesAreAllResolvedAndNothingStaysPending() throws {
        let w = try SyncWorld()
        for i in 0..<30 { try w.put("a", "r\(i)", ["n": .int64(Int64(i)), "a": .string("first")]) }
        try w.sync("a")
        try w.sync("b")
        // b changes every third record's other field; a then changes all thirty, offline.
        for i in stride(from: 0, to: 30, by: 3) { try w.put("b", "r\(i)", ["n": .int64(Int64(i)), "a": .string("first"), "b": .string("from b")]) }
        try w.sync("b")
        for i in 0..<30 { try w.put("a", "r\(i)", ["n": .int64(Int64(i) * 10), "a": .string("first")]) }
        let report = try w.synchronizer("a", batchSize: 4).sync()
        #expect(report.failures.isEmpty)
        #expect(try w.store("a").pendingCount(container: w.container) == 0)
        try w.sync("b")
        let a = try w.contents("a"), b = try w.contents("b")
        #expect(a == b)
        #expect(a.count == 30)
        for i in 0..<30 {
            #expect(a["r\(i)"]?["n"] == .int64(Int64(i) * 10), "r\(i) lost a's edit")
            #expect(a["r\(i)"]?["b"] == (i % 3 == 0 ? .string("from b") : nil), "r\(i) lost b's edit")
        }
    }

    @Test func aCloudFailureMidPushKeepsTheUnstoredRecordsPendingAndTheStoreUsable() throws {
        let w = try SyncWorld()
        for i in 0..<20 { try w.put("a", "r\(i)", ["i": .int64(Int64(i))]) }
        let failing = FailingModifyCloud(base: w.world.cloud, failAt: 3)
        do {
            _ = try w.synchronizer("a", cloud: failing, batchSize: 4).sync()
            Issue.record("the sync should fail")
        } catch let error as CloudError {
            #expect(error.code == .networkUnavailable)
        }
        // Two batches of four went through; the rest stays pending, none lost.
        #expect(try w.store("a").pendingCount(container: w.container) == 12)
        #expect(try w.contents("a").count == 20)
        let report = try w.synchronizer("a", batchSize: 4).sync()
        #expect(report.savedRecords == 12)
        #expect(try w.store("a").pendingCount(container: w.container) == 0)
        try w.sync("b")
        #expect(try w.contents("b").count == 20)
    }
}
