import CloudSyncService
import CloudSyncCore
import CloudSyncPostgresCloud
import Glibc
import TestSupport
import Testing

/// The connection pool of a PostgreSQL cloud (issue 28): transactions on different connections
/// run at once, writers of one database still commit in counter order, and a caller that finds
/// every connection busy gets a clear `serviceUnavailable` with `retryAfter`, never a deadlock.
@Suite("PostgreSQL connection pool")
struct PostgresPoolTests {
    /// A cloud with a pool of its own, on a fresh schema.
    func cloud(connections: Int, maxWait: Double = 2) throws -> (PostgresCloud, CloudFixture) {
        try CloudBackend.pooledPostgres(connections: connections, maxWait: maxWait)
    }

    @Test func aCallerFindingEveryConnectionBusyGetsServiceUnavailableWithRetryAfter() throws {
        let (cloud, f) = try cloud(connections: 1, maxWait: 0.2)
        let r = try f.request("alice")
        let holding = Latch(), release = Latch()
        let holder = startThread {
            _ = try? cloud.storage.read { _ in
                holding.open()
                release.wait()
            }
        }
        holding.wait()
        let error = cloudError { _ = try cloud.queryRecords(RecordQuery(recordType: "Note"), in: r) }
        #expect(error?.code == .serviceUnavailable)
        #expect(error?.retryAfter == 1)
        #expect(error?.reason.contains("busy") == true, "\(error?.reason ?? "")")
        release.open()
        pthread_join(holder, nil)
        // The connection came back: the next call works.
        #expect(try cloud.queryRecords(RecordQuery(recordType: "Note"), in: r).records.isEmpty)
    }

    @Test func aTransactionHeldOpenDoesNotStopAnotherAccountsWrites() throws {
        let (cloud, f) = try cloud(connections: 2, maxWait: 5)
        let alice = try f.request("alice"), bob = try f.request("bob")
        let holding = Latch(), release = Latch()
        let holder = startThread {
            _ = try? cloud.storage.write { _ in
                holding.open()
                release.wait()
            }
        }
        holding.wait()
        // On one connection this save would wait for the held transaction (and time out).
        #expect(try f.save([f.record("b1", zone: "_defaultZone", bob)], bob).count == 1)
        release.open()
        pthread_join(holder, nil)
        #expect(try f.save([f.record("a1", zone: "_defaultZone", alice)], alice).count == 1)
    }

    /// 8 writer threads × 50 one-record saves into one zone over a pool of 8, while a reader
    /// follows the zone's changes: every record is seen exactly once (a reader that saw N+1
    /// before N would skip N for good).
    @Test func eightWritersOnThePoolKeepOneZoneContiguous() throws {
        let (cloud, f) = try cloud(connections: 8)
        let r = try f.request("alice")
        _ = try cloud.saveZones([ZoneSpec(name: "Load")], in: r)
        let failures = Counter()
        let writers = (1...8).map { writer in
            startThread {
                for n in 1...50 {
                    let record = Record(recordID: RecordID(recordName: "w\(writer)_\(n)", zoneID: r.zoneID("Load")), recordType: "Note")
                    do {
                        let result = try cloud.modifyRecords(ModifyRequest(saves: [record]), in: r)
                        if result.partialFailure != nil { failures.add() }
                    } catch {
                        failures.add()
                    }
                }
            }
        }
        var seen: [String] = []
        var token: ServerChangeToken?
        func follow() throws {
            while true {
                let page = try cloud.fetchZoneChanges("Load", since: token, limit: 100, in: r)
                seen += page.changed.map(\.recordID.recordName)
                token = page.token
                if !page.moreComing { break }
            }
        }
        while seen.count < 400 && failures.value == 0 {
            try follow()
            usleep(5_000)
        }
        for writer in writers { pthread_join(writer, nil) }
        try follow()
        #expect(failures.value == 0)
        #expect(seen.count == 400, "no duplicate: \(seen.count) changes seen")
        #expect(Set(seen).count == 400, "no gap")
    }

    /// Saves queued for one database while its writer waits share the next transaction, each in
    /// a savepoint with its own result: the one that goes over the account's quota (refused after
    /// its rows were written) is undone alone, the others land, and the zone's changes stay
    /// contiguous.
    @Test func savesQueuedForOneDatabaseShareATransactionEachWithItsOwnResult() throws {
        let (cloud, f) = try cloud(connections: 4)
        let r = try f.request("alice")
        _ = try cloud.saveZones([ZoneSpec(name: "A", atomic: true)], in: r)
        cloud.setQuota(bytes: 20_000)
        // Another transaction holds alice's database row: the first save leads and waits on it.
        let holding = Latch(), release = Latch()
        let holder = startThread {
            _ = try? cloud.storage.write { tx in
                _ = try tx.findDatabase(container: r.storageContainer, scope: .private, owner: r.userRecordName)
                holding.open()
                release.wait()
            }
        }
        holding.wait()
        let outcomes = Outcomes()
        func saver(_ n: Int) -> pthread_t {
            startThread {
                let text = String(repeating: "x", count: n == 3 ? 30_000 : 10)
                let record = Record(recordID: RecordID(recordName: "g\(n)", zoneID: r.zoneID("A")), recordType: "Note",
                                    fields: ["text": .string(text)])
                do {
                    let result = try cloud.modifyRecords(ModifyRequest(saves: [record]), in: r)
                    outcomes.set(n, result.partialFailure == nil ? "saved" : "partial")
                } catch {
                    outcomes.set(n, "\((error as? CloudError)?.code.rawValue ?? "\(error)")")
                }
            }
        }
        runQueuedBehind(holder: holder, release: release, others: 5, saver)
        #expect(outcomes.all == [0: "saved", 1: "saved", 2: "saved", 3: "quotaExceeded", 4: "saved", 5: "saved"], "\(outcomes.all)")
        let changes = try f.allChanges("A", since: nil, r)
        #expect(Set(changes.changed.map(\.recordID.recordName)) == ["g0", "g1", "g2", "g4", "g5"])
        let figures = try #require(cloud.storage.storageCapabilities.writeGrouping?.writeGroupFigures)
        #expect(figures.largest >= 2, "the queued saves shared a transaction: \(figures.line)")
        #expect(figures.writes == 6, "\(figures.line)")
    }
}

/// Runs the savers of a group-commit test against a lane that `holder` keeps busy until `release`
/// opens: saver 0 first (it takes the lane and waits), then savers 1…`others` (they queue behind
/// it), then the lane is released and every thread joined.
func runQueuedBehind(holder: pthread_t, release: Latch, others: Int, _ saver: (Int) -> pthread_t) {
    let first = saver(0)
    usleep(300_000)
    let queued = (1...others).map { saver($0) }
    usleep(1_000_000)
    release.open()
    pthread_join(holder, nil)
    pthread_join(first, nil)
    for thread in queued { pthread_join(thread, nil) }
}

/// A one-shot gate between threads.
final class Latch: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    init() { sem_init(semaphore, 0, 0) }
    deinit { sem_destroy(semaphore); semaphore.deallocate() }
    func open() { sem_post(semaphore) }
    func wait() { while sem_wait(semaphore) != 0 && errno == EINTR {} }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var count = 0
    init() { pthread_mutex_init(mutex, nil) }
    deinit { pthread_mutex_destroy(mutex); mutex.deallocate() }
    func add() { pthread_mutex_lock(mutex); count += 1; pthread_mutex_unlock(mutex) }
    var value: Int { pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }; return count }
}

/// Each thread's outcome, by number.
final class Outcomes: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var values: [Int: String] = [:]
    init() { pthread_mutex_init(mutex, nil) }
    deinit { pthread_mutex_destroy(mutex); mutex.deallocate() }
    func set(_ n: Int, _ value: String) { pthread_mutex_lock(mutex); values[n] = value; pthread_mutex_unlock(mutex) }
    var all: [Int: String] { pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }; return values }
}
