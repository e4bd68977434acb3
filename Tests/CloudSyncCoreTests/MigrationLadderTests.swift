import CloudSyncCore
import Testing

/// The migration runner over a target with no SQL at all: what it reads, applies and locks is
/// the ladder's rule, the same for the SQLite files and a PostgreSQL cloud.
@Suite("MigrationLadder: one runner over any MigrationTarget")
struct MigrationLadderTests {
    /// A store held in memory that logs what the runner asks of it.
    final class LoggingTarget: MigrationTarget {
        var mark: MigrationMark?
        var hasOtherTables = false
        var locked = false
        var log: [String] = []
        /// Runs once when the lock is taken: another process acting between the read and the lock.
        var onLock: ((LoggingTarget) -> Void)?

        init(mark: MigrationMark? = nil) { self.mark = mark }

        func readMark() throws -> MigrationMark? {
            log.append(locked ? "read (locked)" : "read")
            return mark
        }

        func holdsNothing() throws -> Bool { !hasOtherTables }

        func apply(_ step: MigrationStep, format: String) throws {
            #expect(locked, "step \(step.version) applied without the lock")
            log.append("apply \(step.version)")
            mark = MigrationMark(format: step.version == 1 ? format : mark?.format, version: step.version)
        }

        func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
            locked = true
            defer { locked = false }
            log.append("lock")
            if let onLock { self.onLock = nil; onLock(self) }
            return try body()
        }
    }

    static let ladder = MigrationLadder(format: "toy", fileKind: "toy store", steps: [
        MigrationStep(version: 1, sql: "one"), MigrationStep(version: 2, sql: "two"), MigrationStep(version: 3, sql: "three"),
    ])

    @Test func anEmptyStoreIsCreatedUnderTheLockWithItsOnCreate() throws {
        let target = LoggingTarget()
        var created = false
        #expect(try Self.ladder.prepare(target, name: "s") { created = target.locked })
        #expect(created)
        #expect(target.log == ["read", "lock", "read (locked)", "apply 1", "apply 2", "apply 3"])
        #expect(target.mark == MigrationMark(format: "toy", version: 3))
    }

    @Test func anUpToDateStoreCostsOneReadAndNoLock() throws {
        let target = LoggingTarget(mark: MigrationMark(format: "toy", version: 3))
        #expect(try !Self.ladder.prepare(target, name: "s"))
        #expect(target.log == ["read"])
    }

    @Test func anOlderStoreGetsTheMissingStepsOnly() throws {
        let target = LoggingTarget(mark: MigrationMark(format: "toy", version: 1))
        #expect(try !Self.ladder.prepare(target, name: "s"))
        #expect(target.log == ["read", "lock", "read (locked)", "apply 2", "apply 3"])
    }

    @Test func aStoreMadeBetweenTheReadAndTheLockIsNotMadeTwice() throws {
        let target = LoggingTarget()
        target.onLock = { $0.mark = MigrationMark(format: "toy", version: 3) }
        var created = false
        #expect(try !Self.ladder.prepare(target, name: "s") { created = true })
        #expect(!created)
        #expect(!target.log.contains { $0.hasPrefix("apply") })
    }

    @Test func foreignAndNewerStoresAreRefusedUntouched() throws {
        let newer = LoggingTarget(mark: MigrationMark(format: "toy", version: 4))
        #expect(throws: MigrationError.newerFormat(path: "s", fileKind: "toy store", version: 4, supported: 3)) {
            try Self.ladder.prepare(newer, name: "s")
        }
        let foreign = LoggingTarget(mark: MigrationMark(format: "other", version: 1))
        #expect(throws: MigrationError.foreignFile(path: "s", fileKind: "toy store")) {
            try Self.ladder.prepare(foreign, name: "s")
        }
        let unmarked = LoggingTarget()
        unmarked.hasOtherTables = true
        #expect(throws: MigrationError.foreignFile(path: "s", fileKind: "toy store")) {
            try Self.ladder.prepare(unmarked, name: "s")
        }
        for target in [newer, foreign, unmarked] {
            #expect(!target.log.contains { $0.hasPrefix("apply") })
        }
    }

    @Test func upgradeRereadsUnderTheLock() throws {
        let target = LoggingTarget(mark: MigrationMark(format: "toy", version: 2))
        try Self.ladder.upgrade(target, name: "s")
        #expect(target.log == ["lock", "read (locked)", "apply 3"])
        #expect(throws: MigrationError.foreignFile(path: "t", fileKind: "toy store")) {
            try Self.ladder.upgrade(LoggingTarget(), name: "t")
        }
    }
}
