import BenchSupport
import CloudSyncService
import CloudSyncCore
import CloudSyncWebClient
import CloudSyncWebProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28, the cluster figure and figure 4 per node: `scripts/cluster start --nodes 2`
/// (PostgreSQL primary and replica, two `serve` nodes, HAProxy), then --load-clients (32)
/// clients × --load-saves one-record saves, each client its own account, through the balancer,
/// against the same load sent straight to node 1 of the same cluster (one node, the same
/// PostgreSQL) in the same run, alternated --runs times (median). Reported: throughput ratio,
/// p99, the nodes' CPU seconds per 1,000 saves (summed over the nodes) and each node's peak RSS
/// (VmHWM, target < 200 MB).
struct ClusterPart {
    let options: BackendOptions
    let work: String
    let cloudsync: String
    let script: String
    static let peakTargetMiB = 200.0

    var serve: ServePart { ServePart(options: options, work: work, cloudsync: cloudsync) }

    struct Round {
        var seconds: Double
        var latency: LatencyStats
        var saves: Int
        var cpuSeconds: Double
        var throughput: Double { Double(saves) / seconds }
    }

    func run() throws -> JSONValue {
        let directory = work + "/cluster"
        let started = try runScript(["start", "--nodes", "2", "--dir", directory, "--cloudsync", cloudsync])
        defer { _ = try? runScript(["stop", "--dir", directory]) }
        let settings = Dictionary(uniqueKeysWithValues: started.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        })
        guard let balancer = settings["CLOUDSYNC_CLUSTER_URL"], let node1 = settings["CLOUDSYNC_CLUSTER_NODE_1_URL"],
              let primary = settings["CLOUDSYNC_CLUSTER_POSTGRES_URL"] else {
            throw BenchFailure("scripts/cluster start left no cluster.env in \(directory)")
        }
        let pids = (1...2).compactMap { n in
            (try? readFile(directory + "/node-\(n)/pid")).flatMap { pid_t(String(decoding: $0, as: UTF8.self).filter(\.isNumber)) }
        }
        guard pids.count == 2 else { throw BenchFailure("no node PIDs in \(directory)") }
        let clients = options.loadClients, saves = options.loadSaves
        log("[cluster] \(clients) clients × \(saves) saves: HAProxy + 2 nodes against node 1 alone, \(options.runs) alternated rounds")
        let tokens = try (0..<clients).map { try serve.token("cluster\($0)", cloud: primary) }
        var balanced: [Round] = [], single: [Round] = []
        for round in 1...options.runs {
            balanced.append(try load(balancer, tokens: tokens, round: round, label: "balancer", pids: pids))
            single.append(try load(node1, tokens: tokens, round: round, label: "node 1", pids: pids))
        }
        let peaks = pids.map { Double(Self.statusKiB($0, "VmHWM")) / 1024 }
        let b = median(balanced), s = median(single)
        let ratio = b.throughput / s.throughput
        log("  balancer/node throughput \(fixed(ratio, digits: 2)); node peak RSS \(peaks.map { fixed($0) }.joined(separator: ", ")) MiB")
        func json(_ r: Round) -> JSONValue {
            .object([("saves_per_second", .double(round3(r.throughput))), ("p50_ms", .double(round3(r.latency.quantile(0.5)))),
                     ("p99_ms", .double(round3(r.latency.quantile(0.99)))),
                     ("nodes_cpu_seconds_per_1000_saves", .double(round3(r.cpuSeconds * 1000 / Double(r.saves))))])
        }
        return .object([
            ("clients", .int(Int64(clients))), ("saves_per_client", .int(Int64(saves))), ("rounds", .int(Int64(options.runs))),
            ("balancer_two_nodes", json(b)), ("one_node_direct", json(s)),
            ("throughput_ratio", .double(round3(ratio))),
            ("node_peak_rss_mb", .array(peaks.map { .double(round3($0)) })),
            ("target_rss_mb", .double(Self.peakTargetMiB)), ("met_rss", .bool(peaks.allSatisfy { $0 < Self.peakTargetMiB })),
            ("timed", .string("HTTPCloud modifyRecords of one new record per call, \(clients) threads of this process, each its own account; through HAProxy in front of 2 serve nodes (scripts/cluster) and straight to node 1 of the same cluster, alternated, median round; CPU is both nodes' /proc/PID/stat over the round (the node alone: node 2 idles), peak RSS each node's VmHWM at the end")),
        ])
    }

    func median(_ rounds: [Round]) -> Round {
        rounds.sorted { $0.throughput < $1.throughput }[rounds.count / 2]
    }

    func load(_ base: String, tokens: [String], round: Int, label: String, pids: [pid_t]) throws -> Round {
        let saves = options.loadSaves
        let ticksBefore = pids.map(Self.cpuTicks).reduce(0, +)
        let start = Clock.now()
        let results = runOnThreads(tokens.count) { index -> Result<[Double], BenchFailure> in
            let http = serve.client(base, tokens[index])
            do {
                let request = try BenchCloud.request(http, account: "cluster\(index)", device: "client-\(index)")
                let zone = request.zoneID(ZoneID.defaultZoneName)
                var samples: [Double] = []
                for n in 0..<saves {
                    let record = Record(recordID: RecordID(recordName: "r\(round)-\(label == "balancer" ? "b" : "n")-\(n)", zoneID: zone),
                                        recordType: "Item", fields: ["count": .int64(Int64(n)), "title": .string("Save \(n) of \(index)")])
                    samples.append(try BenchCloud.timedSave(record, with: http, in: request))
                }
                return .success(samples)
            } catch {
                return .failure(BenchFailure("client \(index): \(error)"))
            }
        }
        let seconds = Clock.now() - start
        let cpu = Double(pids.map(Self.cpuTicks).reduce(0, +) - ticksBefore) / Double(sysconf(Int32(_SC_CLK_TCK)))
        var latencies: [Double] = []
        for result in results { latencies += try result.get() }
        let outcome = Round(seconds: seconds, latency: LatencyStats(latencies), saves: latencies.count, cpuSeconds: cpu)
        log("  round \(round) \(label): \(fixed(outcome.throughput)) saves/s, p99 \(fixed(outcome.latency.quantile(0.99))) ms, nodes' CPU \(fixed(cpu, digits: 2)) s")
        return outcome
    }

    /// Runs scripts/cluster; its stdout, or for `start` the cluster.env it wrote.
    func runScript(_ arguments: [String]) throws -> String {
        let out = work + "/cluster-script.out"
        _ = try TimedCommand("/bin/bash", [script] + arguments,
                             environment: ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8", "TMPDIR": work],
                             stdoutPath: out, stderrPath: work + "/cluster-script.err")
        if arguments.first == "start", let directory = arguments.firstIndex(of: "--dir").map({ arguments[$0 + 1] }) {
            return String(decoding: try readFile(directory + "/cluster.env"), as: UTF8.self)
        }
        return String(decoding: try readFile(out), as: UTF8.self)
    }

    /// utime + stime of `pid`, in clock ticks.
    static func cpuTicks(_ pid: pid_t) -> Int {
        guard let bytes = try? readFile("/proc/\(pid)/stat") else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    /// A `/proc/PID/status` figure in KiB.
    static func statusKiB(_ pid: pid_t, _ name: String) -> Int {
        guard let bytes = try? readFile("/proc/\(pid)/status") else { return 0 }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(String(line.dropFirst(name.count + 1).filter(\.isNumber))) ?? 0
        }
        return 0
    }
}
