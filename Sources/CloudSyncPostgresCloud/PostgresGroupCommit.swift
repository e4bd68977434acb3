import CloudSyncService
import CloudSyncCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The writers of each database queued in the process, and carried in groups (issue 28).
///
/// A writer of a database joins its database's queue before it leases a pool connection. The
/// first in an idle queue leads: it takes everyone queued (itself first, at most `maxGroup`),
/// and runs them in one transaction on one connection (`PostgresCloudStorage.writeGroup`), each
/// in a savepoint of its own, then hands the lead to the next one queued, if any. The others
/// wait holding no connection. So one hot database holds at most one connection for writes
/// (instead of one per writer, all waiting on its `databases` row lock inside PostgreSQL), and
/// writers that queue while a transaction runs share the next commit. The row lock still
/// serializes writers of other processes.
final class PostgresGroupCommit: Sendable {
    /// The most writes one transaction carries.
    static let maxGroup = 32

    /// One queued write: the body to run and its outcome.
    final class Job: @unchecked Sendable {
        /// Runs the write's body in the group's transaction (set by the writer, which waits, and
        /// dropped by it once done: the body must not outlive its call).
        private var body: ((any CloudStorageTransaction) throws -> Void)?
        /// Why this write failed; nil when it committed (set by the leader before `finish`).
        var failure: CloudError?
        /// Done (`finish`) or made leader (`lead`).
        private(set) var leads = false
        private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

        init(_ body: @escaping (any CloudStorageTransaction) throws -> Void) {
            self.body = body
            sem_init(semaphore, 0, 0)
        }

        deinit {
            sem_destroy(semaphore)
            semaphore.deallocate()
        }

        /// Runs the body (by the leader, before `finish`).
        func run(_ transaction: any CloudStorageTransaction) throws { try body?(transaction) }
        /// Drops the body (by the writer, after `submit` returned).
        func drop() { body = nil }

        func wait() { while sem_wait(semaphore) != 0 && errno == EINTR {} }
        func finish() { sem_post(semaphore) }
        func lead() {
            leads = true
            sem_post(semaphore)
        }
    }

    private struct Queue {
        var waiting: [Job] = []
        var leading = false
    }

    private let queues = Mutex<[DatabaseWriteKey: Queue]>([:])
    /// Groups run and writes they carried, and the largest group (for the figures).
    private let counts = Mutex<(groups: Int, writes: Int, largest: Int)>((0, 0, 0))

    /// Runs `job` with the other writes of `key` queued at the same time; `runGroup` runs one
    /// group in one transaction and sets each job's `failure`. Returns when `job` is done.
    func submit(_ job: Job, key: DatabaseWriteKey, runGroup: ([Job]) -> Void) {
        let leads = queues.withLock { queues in
            var queue = queues[key] ?? Queue()
            queue.waiting.append(job)
            let leads = !queue.leading
            queue.leading = true
            queues[key] = queue
            return leads
        }
        if !leads {
            job.wait()
            guard job.leads else { return }
        }
        let group = queues.withLock { queues in
            let taken = Array(queues[key]?.waiting.prefix(Self.maxGroup) ?? [])
            queues[key]?.waiting.removeFirst(taken.count)
            return taken
        }
        runGroup(group)
        counts.withLock { counts in
            counts.groups += 1
            counts.writes += group.count
            counts.largest = max(counts.largest, group.count)
        }
        let next = queues.withLock { queues -> Job? in
            if let next = queues[key]?.waiting.first { return next }
            queues[key] = nil
            return nil
        }
        next?.lead()
        for other in group where other !== job { other.finish() }
    }

    /// Groups run, writes they carried, and the largest group, since the process started.
    var figures: WriteGroupFigures {
        counts.withLock { WriteGroupFigures(groups: $0.groups, writes: $0.writes, largest: $0.largest) }
    }
}
