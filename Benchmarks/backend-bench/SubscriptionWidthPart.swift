import BenchSupport
import CloudSyncService
import CloudSyncCore
import CloudSyncWebClient
#if canImport(Glibc)
import Glibc
#endif

/// Issue 25, item 4 (`--hostile`): alice's single-record public saves through `cloudsync serve`,
/// on a clean database and then with another account's widest allowed public query
/// subscriptions (the caps: 100 subscriptions, 2,000 comparisons together, split 100 × 20, all
/// holding for alice's records, so every one is evaluated in full on each of her saves). The goal
/// is at most 2× the clean time; before the caps one account could make it 150×.
struct SubscriptionWidthPart {
    let serve: ServePart
    let work: String
    let saves: Int

    init(options: BackendOptions, work: String, cloudsync: String) {
        self.serve = ServePart(options: options, work: work, cloudsync: cloudsync)
        self.work = work
        self.saves = options.quick ? 50 : 200
    }

    func run() throws -> JSONValue {
        let cloudURL = "sqlite://" + work + "/subscription-width.sqlite"
        let alice = try serve.token("alice", cloud: cloudURL)
        let mallory = try serve.token("mallory", cloud: cloudURL)
        let server = try LineProcess(executable: serve.cloudsync, arguments: ["serve", "--listen", "127.0.0.1:0", "--cloud", cloudURL],
                                     environment: serve.environment(work + "/server-home"), stderrPath: work + "/subscription-width.log")
        defer { _ = server.stop() }
        guard let first = server.readLine(timeout: 30), first.hasPrefix("listening on ") else {
            throw BenchFailure("serve did not start; see \(work)/subscription-width.log")
        }
        let base = String(first.dropFirst("listening on ".count))
        func client(_ token: String) -> HTTPCloud {
            HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: base, defaultContainer: BenchCloud.container, token: { _ in token }),
                      session: CurlSession())
        }
        let aliceCloud = client(alice)
        let malloryCloud = client(mallory)
        let aliceDB = try request(aliceCloud, "alice")
        _ = try timedSaves(aliceCloud, aliceDB, prefix: "warm", count: 20)
        let clean = try timedSaves(aliceCloud, aliceDB, prefix: "clean", count: saves)
        log("[subscription width] clean public saves: \(summary(clean))")
        let malloryDB = try request(malloryCloud, "mallory")
        let width = SubscriptionLimits.maxComparisonsPerAccount / SubscriptionLimits.maxPerAccount
        for batch in stride(from: 0, to: SubscriptionLimits.maxPerAccount, by: 10) {
            let subscriptions = (batch..<batch + 10).map { index in
                Subscription(subscriptionID: "wide-\(index)", kind: .query(QuerySubscription(
                    recordType: "Post", predicate: .and((0..<width).map { .comparison("title", .notEqual, .string("w\(index)-\($0)")) }),
                    firesOn: [.create])))
            }
            _ = try malloryCloud.saveSubscriptions(subscriptions, in: malloryDB)
        }
        let refused: Bool
        do {
            _ = try malloryCloud.saveSubscriptions([Subscription(subscriptionID: "one-more", kind: .query(QuerySubscription(recordType: "Post")))],
                                                   in: malloryDB)
            refused = false
        } catch {
            refused = error.code == .limitExceeded
        }
        let attacked = try timedSaves(aliceCloud, aliceDB, prefix: "attacked", count: saves)
        let ratio = LatencyStats(attacked).quantile(0.5) / max(LatencyStats(clean).quantile(0.5), 0.001)
        log("[subscription width] with \(SubscriptionLimits.maxPerAccount) subscriptions of \(width) comparisons from mallory: "
            + "\(summary(attacked)); p50 ratio \(fixed(ratio))x (goal <= 2x); the 101st refused: \(refused)")
        return .object([("clean", figures(clean)), ("attacked", figures(attacked)), ("p50_ratio", .double(round3(ratio))),
                        ("hostile_subscriptions", .int(Int64(SubscriptionLimits.maxPerAccount))),
                        ("comparisons_each", .int(Int64(width))), ("one_more_refused", .bool(refused))])
    }

    func request(_ cloud: HTTPCloud, _ account: String) throws -> DatabaseRequest {
        let user = try cloud.account(named: account)
        return DatabaseRequest(container: BenchCloud.container, scope: .public, userRecordName: user.userRecordName, deviceID: "bench")
    }

    /// Milliseconds of each of `count` one-record public saves.
    func timedSaves(_ cloud: HTTPCloud, _ database: DatabaseRequest, prefix: String, count: Int) throws -> [Double] {
        var out: [Double] = []
        for index in 0..<count {
            let record = Record(recordID: RecordID(recordName: "\(prefix)-\(index)", zoneID: database.zoneID(ZoneID.defaultZoneName)),
                                recordType: "Post", fields: ["title": .string("post \(index)")])
            let start = Clock.now()
            let result = try cloud.modifyRecords(ModifyRequest(saves: [record]), in: database)
            if let failure = result.partialFailure { throw failure }
            out.append((Clock.now() - start) * 1000)
        }
        return out
    }

    func summary(_ latencies: [Double]) -> String {
        let stats = LatencyStats(latencies)
        return "p50 \(fixed(stats.quantile(0.5))) ms, p99 \(fixed(stats.quantile(0.99))) ms"
    }

    func figures(_ latencies: [Double]) -> JSONValue {
        let stats = LatencyStats(latencies)
        return .object([("p50_ms", .double(round3(stats.quantile(0.5)))), ("p99_ms", .double(round3(stats.quantile(0.99))))])
    }
}
