import BenchSupport
import CloudSyncService
import CloudSyncCore
import CloudSyncWebClient
import CloudSyncWebProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28, figure 3: reads through 2 `serve` nodes with a streaming replica (`--read-replica`,
/// the clients spread over the two nodes directly) against 1 node without a replica, the same
/// clients and reads in the same run over the same PostgreSQL primary. Each client is an account
/// of its own with a zone of records; a read is a lookup of 20 of them (`HTTPCloud.fetchRecords`,
/// which sends back the `X-CloudSync-Position` it saw). Reports reads per second of each layout,
/// their ratio, and the share of reads the replica answered (from each node's log line at exit).
struct ReplicaPart {
    let options: BackendOptions
    let postgresURL: String
    let replicaURL: String
    let work: String
    let cloudsync: String

    var serve: ServePart { ServePart(options: options, work: work, cloudsync: cloudsync) }
    var clients: Int { options.replicaClients }
    var reads: Int { options.replicaReads }
    static let recordsPerAccount = 400
    static let recordsPerRead = 20

    struct Outcome {
        var seconds: Double
        var latency: LatencyStats
        var reads: Int
        /// Each node's "read replicas served N of M reads …" line at exit.
        var replicaLines: [String]
        var throughput: Double { Double(reads) / seconds }
        /// Reads the replicas answered over all reads the nodes counted.
        var replicaShare: Double? {
            let pairs = replicaLines.compactMap { line -> (Int, Int)? in
                let words = line.split(separator: " ")
                guard let served = words.firstIndex(of: "served"), served + 3 < words.count,
                      let replica = Int(words[served + 1]), let all = Int(words[served + 3]) else { return nil }
                return (replica, all)
            }
            guard !pairs.isEmpty else { return nil }
            let all = pairs.reduce(0) { $0 + $1.1 }
            return all == 0 ? 0 : Double(pairs.reduce(0) { $0 + $1.0 }) / Double(all)
        }
        var json: JSONValue {
            .object([("reads", .int(Int64(reads))), ("seconds", .double(round3(seconds))),
                     ("reads_per_second", .double(round3(throughput))),
                     ("p50_ms", .double(round3(latency.quantile(0.5)))), ("p99_ms", .double(round3(latency.quantile(0.99))))]
                    + (replicaLines.isEmpty ? [] : [("serve_log", JSONValue.array(replicaLines.map { .string($0) }))])
                    + (replicaShare.map { [("replica_share", JSONValue.double(round3($0)))] } ?? []))
        }
    }

    func run() throws -> JSONValue {
        let cloud = postgresURL + (postgresURL.contains("?") ? "&" : "?") + "schema=br\(getpid())"
        let replica = replicaURL + (replicaURL.contains("?") ? "&" : "?") + "schema=br\(getpid())"
        let accounts = (0..<clients).map { "reader\($0)" }
        let tokens = try accounts.map { try serve.token($0, cloud: cloud) }
        log("[replica] fill: \(clients) accounts × \(Self.recordsPerAccount) records (not timed)")
        try withNodes(cloud: cloud, count: 1, replica: nil, label: "fill") { bases, _ in
            for (index, account) in accounts.enumerated() {
                let http = serve.client(bases[0], tokens[index])
                let request = try BenchCloud.request(http, account: account, device: "fill")
                try BenchCloud.fill(http, request, count: Self.recordsPerAccount, label: account)
            }
        }
        let single = try measure(cloud: cloud, nodes: 1, replica: nil, tokens: tokens, label: "1 node, no replica")
        let spread = try measure(cloud: cloud, nodes: 2, replica: replica, tokens: tokens, label: "2 nodes + replica")
        // Where the difference comes from: the second node alone, without the replica.
        let twoNodes = try measure(cloud: cloud, nodes: 2, replica: nil, tokens: tokens, label: "2 nodes, no replica")
        let ratio = spread.throughput / single.throughput
        log("  2 nodes + replica / 1 node: \(fixed(ratio, digits: 2))× reads/s; replica answered \(fixed(100 * (spread.replicaShare ?? 0), digits: 1)) % of reads")
        log("  2 nodes without replica / 1 node: \(fixed(twoNodes.throughput / single.throughput, digits: 2))×")
        return .object([("one_node", single.json), ("two_nodes_with_replica", spread.json), ("two_nodes_no_replica", twoNodes.json),
                        ("throughput_ratio", .double(round3(ratio))),
                        ("two_nodes_no_replica_ratio", .double(round3(twoNodes.throughput / single.throughput))),
                        ("replica_share", spread.replicaShare.map { .double(round3($0)) } ?? .null),
                        ("clients", .int(Int64(clients))), ("reads_per_client", .int(Int64(reads))),
                        ("timed", .string("\(clients) threads, each its own account and HTTPCloud, \(reads) lookups of \(Self.recordsPerRead) of its \(Self.recordsPerAccount) records; 2 nodes: thread i uses node i % 2; one machine for every process (primary, replica, nodes, clients)"))])
    }

    /// Starts `count` serve nodes over `cloud` (with `--read-replica replica`), runs `body` with
    /// their base URLs and processes, stops them and returns each node's replica line.
    @discardableResult
    func withNodes(cloud: String, count: Int, replica: String?, label: String,
                   _ body: ([String], [LineProcess]) throws -> Void) throws -> [String] {
        var nodes: [LineProcess] = []
        var bases: [String] = []
        var stopped = false
        defer { if !stopped { for node in nodes { _ = node.stop() } } }
        for index in 0..<count {
            let logPath = work + "/replica-\(label)-\(index).log"
            unlink(logPath)
            let node = try LineProcess(executable: cloudsync,
                                       arguments: ["serve", "--listen", "127.0.0.1:0", "--cloud", cloud, "--log", logPath]
                                           + (replica.map { ["--read-replica", $0] } ?? []),
                                       environment: serve.environment(work + "/server-home"),
                                       stderrPath: work + "/replica-\(label)-\(index).err")
            nodes.append(node)
            guard let first = node.readLine(timeout: 30), first.hasPrefix("listening on ") else {
                throw BenchFailure("serve did not start; see \(work)/replica-\(label)-\(index).err")
            }
            bases.append(String(first.dropFirst("listening on ".count)))
        }
        try body(bases, nodes)
        for node in nodes { _ = node.stop() }
        stopped = true
        return (0..<count).compactMap { index in
            let text = String(decoding: (try? readFile(work + "/replica-\(label)-\(index).log")) ?? [], as: UTF8.self)
            return text.split(separator: "\n").last { $0.hasPrefix("read replicas served") }.map(String.init)
        }
    }

    func measure(cloud: String, nodes: Int, replica: String?, tokens: [String], label: String) throws -> Outcome {
        log("[replica] \(label): \(clients) clients × \(reads) reads")
        let clients = self.clients, reads = self.reads, serve = self.serve
        var seconds = 0.0
        var latencies: [Double] = []
        let lines = try withNodes(cloud: cloud, count: nodes, replica: replica, label: label.replacingSpaces) { bases, _ in
            // Every account is looked up once first (not timed): its account row and position.
            let start = Clock.now()
            let results = runOnThreads(clients) { index -> Result<[Double], BenchFailure> in
                let http = serve.client(bases[index % bases.count], tokens[index])
                do {
                    let request = try BenchCloud.request(http, account: "reader\(index)", device: "reader")
                    let zone = request.zoneID(BenchCloud.zoneName)
                    var samples: [Double] = []
                    var generator = SystemRandomNumberGenerator()
                    for _ in 0..<reads {
                        let first = Int.random(in: 0...(Self.recordsPerAccount - Self.recordsPerRead), using: &generator)
                        let ids = (first..<first + Self.recordsPerRead).map { BenchCloud.record($0, zone: zone).recordID }
                        let callStart = Clock.now()
                        let found = try http.fetchRecords(ids, in: request)
                        samples.append((Clock.now() - callStart) * 1000)
                        guard found.values.allSatisfy({ if case .success = $0 { true } else { false } }) else {
                            return .failure(BenchFailure("client \(index): a record was missing"))
                        }
                    }
                    return .success(samples)
                } catch {
                    return .failure(BenchFailure("client \(index): \(error)"))
                }
            }
            seconds = Clock.now() - start
            for result in results { latencies += try result.get() }
        }
        let outcome = Outcome(seconds: seconds, latency: LatencyStats(latencies), reads: latencies.count, replicaLines: lines)
        log("  \(fixed(outcome.throughput)) reads/s, p50 \(fixed(outcome.latency.quantile(0.5))) ms, p99 \(fixed(outcome.latency.quantile(0.99))) ms"
            + (lines.isEmpty ? "" : "; " + lines.joined(separator: "; ")))
        return outcome
    }
}

extension String {
    /// The label as a file name part.
    fileprivate var replacingSpaces: String { String(map { $0 == " " || $0 == "," || $0 == "+" ? "-" : $0 }) }
}
