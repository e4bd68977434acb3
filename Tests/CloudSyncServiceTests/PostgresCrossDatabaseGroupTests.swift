import CloudSyncService
import CloudSyncCore
import CloudSyncPostgresCloud
import Glibc
import TestSupport
import Testing

/// Group commit across databases (issue 28): saves of different accounts that queue while the
/// lanes are busy share one transaction, each with its own result; no database runs in two
/// lanes at once.
@Suite("PostgreSQL group commit across databases")
struct PostgresCrossDatabaseGroupTests {
    func cloud(connections: Int, maxWait: Double = 20) throws -> (PostgresCloud, CloudFixture) {
        try CloudBackend.pooledPostgres(connections: connections, maxWait: maxWait)
    }

    /// One connection, held by a read: alice's save takes the one lane and waits for it; bob's,
    /// carol's, dave's and erin's queue meanwhile and then run in one transaction. Carol's and
    /// erin's go over the quota in an atomic zone (refused after their rows were written): the
    /// first refusal reruns the group with savepoints, the second rolls back to its own; each
    /// alone is undone and refused, bob and dave get their own saved records, and each zone
    /// holds only its owner's.
    @Test func aRefusedSaveInACrossDatabaseGroupUndoesOnlyItselfAndEachCallerGetsItsOwnResult() throws {
        let (cloud, f) = try cloud(connections: 1)
        let names = ["alice", "bob", "carol", "dave", "erin"]
        let requests = try names.map { try f.request($0) }
        for r in requests { _ = try cloud.saveZones([ZoneSpec(name: "A", atomic: true)], in: r) }
        cloud.setQuota(bytes: 20_000)
        let holding = Latch(), release = Latch()
        let holder = startThread {
            _ = try? cloud.storage.read { _ in
                holding.open()
                release.wait()
            }
        }
        holding.wait()
        let outcomes = Outcomes()
        func saver(_ n: Int) -> pthread_t {
            startThread {
                let r = requests[n]
                let text = String(repeating: "x", count: ["carol", "erin"].contains(names[n]) ? 30_000 : 10)
                let record = Record(recordID: RecordID(recordName: "\(names[n])-note", zoneID: r.zoneID("A")), recordType: "Note",
                                    fields: ["text": .string(text)])
                do {
                    let result = try cloud.modifyRecords(ModifyRequest(saves: [record]), in: r)
                    let saved = result.saved.map(\.recordID.recordName)
                    outcomes.set(n, result.partialFailure == nil ? "saved \(saved)" : "partial")
                } catch {
                    outcomes.set(n, "\((error as? CloudError)?.code.rawValue ?? "\(error)")")
                }
            }
        }
        runQueuedBehind(holder: holder, release: release, others: 4, saver)
        #expect(outcomes.all == [0: "saved [\"alice-note\"]", 1: "saved [\"bob-note\"]", 2: "quotaExceeded",
                                 3: "saved [\"dave-note\"]", 4: "quotaExceeded"], "\(outcomes.all)")
        for (n, r) in requests.enumerated() {
            let changed = try f.allChanges("A", since: nil, r).changed.map(\.recordID.recordName)
            #expect(changed == (["carol", "erin"].contains(names[n]) ? [] : ["\(names[n])-note"]), "\(names[n]): \(changed)")
        }
        let figures = try #require(cloud.storage.storageCapabilities.writeGrouping?.writeGroupFigures)
        #expect(figures.groups == 2 && figures.writes == 5, "\(figures.line)")
        #expect(figures.largest == 4 && figures.mixed == 1, "the four queued saves shared a transaction: \(figures.line)")
    }

    /// 16 writer threads on 4 accounts (4 each) × 25 one-record saves over a pool of 2 (two
    /// lanes, no database in both at once, queued saves of several accounts grouped): every
    /// account's zone gets every record exactly once, in counter order (a follower paging with
    /// its token sees each once).
    @Test func writersOfSeveralAccountsOnTwoLanesKeepEveryZoneComplete() throws {
        let (cloud, f) = try cloud(connections: 2)
        let requests = try (0..<4).map { try f.request("user\($0)") }
        for r in requests { _ = try cloud.saveZones([ZoneSpec(name: "Load")], in: r) }
        let failures = Counter()
        let writers = (0..<16).map { writer in
            startThread {
                let r = requests[writer % 4]
                for n in 1...25 {
                    let record = Record(recordID: RecordID(recordName: "w\(writer)_\(n)", zoneID: r.zoneID("Load")), recordType: "Note")
                    do {
                        if try cloud.modifyRecords(ModifyRequest(saves: [record]), in: r).partialFailure != nil { failures.add() }
                    } catch {
                        failures.add()
                    }
                }
            }
        }
        var seen: [[String]] = Array(repeating: [], count: 4)
        var tokens: [ServerChangeToken?] = Array(repeating: nil, count: 4)
        func follow() throws {
            for account in 0..<4 {
                while true {
                    let page = try cloud.fetchZoneChanges("Load", since: tokens[account], limit: 50, in: requests[account])
                    seen[account] += page.changed.map(\.recordID.recordName)
                    tokens[account] = page.token
                    if !page.moreComing { break }
                }
            }
        }
        while seen.map(\.count).reduce(0, +) < 400 && failures.value == 0 {
            try follow()
            usleep(5_000)
        }
        for writer in writers { pthread_join(writer, nil) }
        try follow()
        #expect(failures.value == 0)
        for account in 0..<4 {
            let expected = Set((0..<16).filter { $0 % 4 == account }.flatMap { w in (1...25).map { "w\(w)_\($0)" } })
            #expect(seen[account].count == 100, "user\(account): \(seen[account].count) changes seen")
            #expect(Set(seen[account]) == expected, "user\(account): no gap, no stranger")
        }
        let figures = try #require(cloud.storage.storageCapabilities.writeGrouping?.writeGroupFigures)
        #expect(figures.writes == 400, "\(figures.line)")
        #expect(figures.groups < 400, "queued saves shared transactions: \(figures.line)")
    }
}
