import CloudSyncService
import CloudSyncCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The database writers queued in the process, carried in groups (issue 28).
///
/// A writer joins one queue of the process before it leases a pool connection. At most `lanes`
/// groups run at once (the pool's size), and no database is in two running groups: a free lane
/// takes the queued writers, in queue order, of every database no running group holds (at most
/// `maxGroup`); one of them (the one submitting, if it is among them) leads: it runs them in one
/// transaction on one connection (`PostgresCloudStorage.writeGroup`), each with its own result,
/// then frees the lane, starts the groups that can now run and wakes the others. The rest wait
/// holding no connection. So writers that queue while the lanes are busy share the next commit,
/// one hot database holds at most one lane, and writers of one database still run one at a time
/// in queue order. Several databases' writers in one transaction cost one round trip each (the
/// next one's first reads go with the previous one's writes) and one COMMIT for all: with the
/// statements pipelined, that measured 25 % more saves a second than one database per
/// transaction on figure 1 (32 accounts; docs/PERFORMANCE.md). A group's writers run in the
/// order of their `DatabaseWriteKey` (queue order within a database), so groups of several
/// processes take the `databases` row locks in one order; the row lock still serializes
/// writers of other processes.
final class PostgresGroupCommit: Sendable {
    /// The most writes one transaction carries.
    static let maxGroup = 32

    /// Groups that may run at once.
    let lanes: Int

    /// One queued write: its database, the body to run and its outcome.
    final class Job: @unchecked Sendable {
        /// The database the body writes.
        let key: DatabaseWriteKey
        /// Runs the write's body in the group's transaction (set by the writer, which waits, and
        /// dropped by it once done: the body must not outlive its call).
        private var body: ((any CloudStorageTransaction) throws -> Void)?
        /// Why this write failed; nil when it committed (set by the leader before `finish`).
        var failure: CloudError?
        /// The group this job leads, set (before its semaphore is posted) when it is made leader.
        private(set) var group: [Job]?
        private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

        init(key: DatabaseWriteKey, _ body: @escaping (any CloudStorageTransaction) throws -> Void) {
            self.key = key
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
        func lead(_ group: [Job]) {
            self.group = group
            sem_post(semaphore)
        }
    }

    private struct State {
        var waiting: [Job] = []
        /// Databases a running group holds.
        var busy: Set<DatabaseWriteKey> = []
        var running = 0
    }

    private let state = Mutex(State())
    /// Groups run, writes they carried, the largest group, and groups of several databases.
    private let counts = Mutex(WriteGroupFigures(groups: 0, writes: 0, largest: 0))

    init(lanes: Int) {
        self.lanes = max(1, lanes)
    }

    /// Runs `job` with the other writes queued at the same time; `runGroup` runs one group in
    /// one transaction and sets each job's `failure`. Returns when `job` is done.
    func submit(_ job: Job, runGroup: ([Job]) -> Void) {
        let started = state.withLock { state in
            state.waiting.append(job)
            return start(&state)
        }
        var group: [Job]?
        for (leader, members) in started {
            if leader === job { group = members } else { leader.lead(members) }
        }
        if group == nil {
            job.wait()
            group = job.group
        }
        guard let group else { return }
        runGroup(group)
        counts.withLock { counts in
            counts.groups += 1
            counts.writes += group.count
            counts.largest = max(counts.largest, group.count)
            if Set(group.map(\.key)).count > 1 { counts.mixed += 1 }
        }
        let next = state.withLock { state in
            state.running -= 1
            for member in group { state.busy.remove(member.key) }
            return start(&state)
        }
        for (leader, members) in next { leader.lead(members) }
        for other in group where other !== job { other.finish() }
    }

    /// Forms the groups that can start now, marking their databases busy; each with its leader
    /// (the last one queued among them, which is the submitter when it is one of them).
    private func start(_ state: inout State) -> [(leader: Job, group: [Job])] {
        var started: [(leader: Job, group: [Job])] = []
        while state.running < lanes {
            guard state.waiting.contains(where: { !state.busy.contains($0.key) }) else { break }
            var taken: [Job] = []
            var rest: [Job] = []
            var keys: Set<DatabaseWriteKey> = []
            for job in state.waiting {
                if taken.count < Self.maxGroup && !state.busy.contains(job.key) {
                    taken.append(job)
                    keys.insert(job.key)
                } else {
                    rest.append(job)
                }
            }
            guard let leader = taken.last else { break }
            state.waiting = rest
            state.busy.formUnion(keys)
            state.running += 1
            started.append((leader, Self.lockOrder(taken)))
        }
        return started
    }

    /// The jobs by database key (stable: queue order within a database), so every process's
    /// groups lock the `databases` rows in one order.
    static func lockOrder(_ jobs: [Job]) -> [Job] {
        guard jobs.count > 1 else { return jobs }
        return jobs.enumerated().sorted { a, b in
            let x = a.element.key, y = b.element.key
            if (x.container, x.scope.rawValue, x.owner) != (y.container, y.scope.rawValue, y.owner) {
                return (x.container, x.scope.rawValue, x.owner) < (y.container, y.scope.rawValue, y.owner)
            }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Groups run, writes they carried, the largest group, and groups of several databases,
    /// since the process started.
    var figures: WriteGroupFigures { counts.withLock { $0 } }
}
