import CloudSyncService
import CloudSyncCore
import CloudSyncWebClient
import CloudSyncWebProtocol
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("scripts/cluster: a node killed under load loses no acknowledged write (end to end)", .serialized)
struct ClusterNodeKillTests {
    static let clients = 32
    static let savesPerClient = 25
    static let container = "iCloud.com.example.Cluster"

    /// What the clients acknowledged, and when to kill.
    final class Progress: Sendable {
        let acknowledged = Mutex<Int>(0)
    }

    /// One client: its own account and device, one new record per save (policy
    /// ifServerRecordUnchanged, no change tag: a save repeated after its first try was applied
    /// meets its own record), through the balancer, retried as the CLI's cloud is.
    static func client(_ index: Int, url: String, token: String, progress: Progress) -> Result<[RecordID], CloudError> {
        let http = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: url, defaultContainer: container, token: { _ in token }),
                             session: CurlSession())
        let cloud = RetryingCloud(wrapping: http, policy: .tryLater)
        do {
            let user = try cloud.account(named: "load\(index)")
            let request = DatabaseRequest(container: container, scope: .private, userRecordName: user.userRecordName,
                                          deviceID: "client-\(index)")
            var acknowledged: [RecordID] = []
            for n in 0..<savesPerClient {
                let id = RecordID(recordName: "c\(index)-\(n)", zoneID: request.zoneID(ZoneID.defaultZoneName))
                let record = Record(recordID: id, recordType: "Item",
                                    fields: ["n": .int64(Int64(n)), "title": .string("save \(n) of client \(index)")])
                let result = try cloud.modifyRecords(ModifyRequest(saves: [record]), in: request)
                if let failure = result.partialFailure { return .failure(failure) }
                guard result.saved.map(\.recordID) == [id] else {
                    return .failure(CloudError(.internalError, "save of \(id.recordName) acknowledged \(result.saved.map(\.recordID.recordName))"))
                }
                acknowledged.append(id)
                progress.acknowledged.withLock { $0 += 1 }
            }
            return .success(acknowledged)
        } catch {
            return .failure(error)
        }
    }

    /// 32 clients save through HAProxy in front of 2 nodes; node 1 is killed (SIGKILL) once a
    /// quarter of the saves are acknowledged. Every client finishes (the client repeats what the
    /// balancer answers 502/503 for), and every acknowledged save is in the database afterwards,
    /// read straight from node 2 (so from the primary, not through the balancer).
    @Test func killingANodeUnderLoadLosesNoAcknowledgedWrite() throws {
        let cluster = try ClusterFixture(nodes: 2)
        defer { cluster.stop() }
        let tokens = try (0..<Self.clients).map { try cluster.token("load\($0)") }
        let progress = Progress()
        let url = cluster.balancerURL
        let total = Self.clients * Self.savesPerClient
        let results = Mutex<[Int: Result<[RecordID], CloudError>]>([:])
        let threads = (0..<Self.clients).map { index in
            startThread {
                let outcome = Self.client(index, url: url, token: tokens[index], progress: progress)
                results.withLock { $0[index] = outcome }
            }
        }
        let deadline = BackgroundProcess.now() + 120
        while progress.acknowledged.withLock({ $0 }) < total / 4 && BackgroundProcess.now() < deadline {
            sleepSeconds(0.01)
        }
        let beforeKill = progress.acknowledged.withLock { $0 }
        let killed = cluster.run(["kill-node", "1"])
        #expect(killed.status == 0, "\(killed.stderr)")
        #expect(beforeKill < total, "the node died while clients were still saving (\(beforeKill) of \(total) acknowledged)")
        for thread in threads { pthread_join(thread, nil) }
        let outcomes = results.withLock { all in (0..<Self.clients).map { all[$0] ?? .failure(CloudError(.internalError, "no result")) } }

        var acknowledged: [(Int, [RecordID])] = []
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .success(let ids):
                #expect(ids.count == Self.savesPerClient, "client \(index) finished all its saves")
                acknowledged.append((index, ids))
            case .failure(let error):
                Issue.record("client \(index) did not finish: \(error.code.rawValue): \(error.reason)")
            }
        }
        #expect(cluster.requestLog(1).contains("records/modify"), "node 1 took saves before it was killed")
        #expect(cluster.requestLog(2).contains("records/modify"), "node 2 took saves")

        // Count them in the database, through node 2 directly.
        var found = 0, expected = 0
        for (index, ids) in acknowledged {
            let http = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: cluster.nodeURL(2), defaultContainer: Self.container,
                                                                       token: { _ in tokens[index] }),
                                 session: CurlSession())
            let user = try http.account(named: "load\(index)")
            let request = DatabaseRequest(container: Self.container, scope: .private, userRecordName: user.userRecordName,
                                          deviceID: "checker")
            let fetched = try http.fetchRecords(ids, in: request)
            expected += ids.count
            for id in ids {
                if case .success(let record)? = fetched[id], record.fields["title"] != nil { found += 1 }
            }
        }
        #expect(expected == total, "every client's every save was acknowledged")
        #expect(found == expected, "acknowledged saves in the database: \(found) of \(expected)")
        print("cluster kill test: \(beforeKill) of \(total) saves acknowledged before node 1 was killed; \(found) of \(expected) found after")
    }
}

