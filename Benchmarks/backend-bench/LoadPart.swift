import BenchSupport
import CloudSyncService
import CloudSyncCore
import CloudSyncWebClient
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28, figures 1, 2 and 4: 32 clients × 200 one-record saves through one `serve`, over
/// PostgreSQL (with its connection pool) against the same load over SQLite in the same run;
/// each client its own account (figure 1), then all on one account (figure 2); the server's CPU
/// seconds per 1,000 saves and its peak RSS (figure 4).
struct LoadPart {
    let options: BackendOptions
    let postgresURL: String
    let work: String
    let cloudsync: String

    var serve: ServePart { ServePart(options: options, work: work, cloudsync: cloudsync) }

    struct Outcome {
        var seconds: Double
        var latency: LatencyStats
        var cpuSeconds: Double
        var peakMiB: Double
        var saves: Int
        /// serve's "group commit: …" line at its exit (PostgreSQL only).
        var groupCommit: String?
        /// The machine's busy CPU seconds over the load (every process), the benchmark's own
        /// clients' part of it, and the share of the cores left idle.
        var machineSeconds: Double
        var clientSeconds: Double
        var idleShare: Double

        var throughput: Double { Double(saves) / seconds }
        var json: JSONValue {
            .object([("saves", .int(Int64(saves))), ("seconds", .double(round3(seconds))),
                     ("saves_per_second", .double(round3(throughput))),
                     ("p50_ms", .double(round3(latency.quantile(0.5)))), ("p99_ms", .double(round3(latency.quantile(0.99)))),
                     ("server_cpu_seconds_per_1000_saves", .double(round3(cpuSeconds * 1000 / Double(saves)))),
                     ("server_peak_rss_mb", .double(round3(peakMiB))),
                     ("machine_cpu_seconds_per_1000_saves", .double(round3(machineSeconds * 1000 / Double(saves)))),
                     ("client_cpu_seconds_per_1000_saves", .double(round3(clientSeconds * 1000 / Double(saves)))),
                     ("machine_idle_share", .double(round3(idleShare)))]
                    + (groupCommit.map { [("group_commit", JSONValue.string($0))] } ?? []))
        }
    }

    func run() throws -> JSONValue {
        let clients = options.loadClients, saves = options.loadSaves
        var figures: [(String, JSONValue)] = []
        if let only = options.loadOnly {
            let cloud = only == "sqlite" ? "sqlite://" + work + "/load-only.sqlite"
                : postgresURL + (postgresURL.contains("?") ? "&" : "?") + "schema=bl\(getpid())_only"
            let outcome = try load(cloud: cloud, label: "\(only) own_accounts", clients: clients, saves: saves, oneAccount: false)
            return .object([("only", .string(only)), ("own_accounts", outcome.json)])
        }
        for (label, oneAccount) in [("own_accounts", false), ("one_account", true)] {
            let sqlite = try load(cloud: "sqlite://" + work + "/load-\(label).sqlite", label: "sqlite \(label)",
                                  clients: clients, saves: saves, oneAccount: oneAccount)
            let schema = "schema=bl\(getpid())_\(label)"
            let postgres = try load(cloud: postgresURL + (postgresURL.contains("?") ? "&" : "?") + schema, label: "postgres \(label)",
                                    clients: clients, saves: saves, oneAccount: oneAccount)
            // The same over one connection, as serve was before its pool: what the pool buys.
            let single = try load(cloud: postgresURL + (postgresURL.contains("?") ? "&" : "?") + schema + "_one", label: "postgres \(label), 1 connection",
                                  clients: clients, saves: saves, oneAccount: oneAccount, connections: 1)
            let ratio = postgres.throughput / sqlite.throughput
            let goal = oneAccount ? 0.5 : 1.0
            log("  \(label): postgres/sqlite throughput \(fixed(ratio, digits: 2)) (goal ≥ \(goal)), postgres p99 \(fixed(postgres.latency.quantile(0.99))) ms")
            figures.append((label, .object([("sqlite", sqlite.json), ("postgres", postgres.json),
                                            ("postgres_one_connection", single.json),
                                            ("one_connection_ratio", .double(round3(single.throughput / sqlite.throughput))),
                                            ("throughput_ratio", .double(round3(ratio))), ("target_ratio", .double(goal)),
                                            ("met_ratio", .bool(ratio >= goal)),
                                            ("postgres_p99_target_ms", .double(100)),
                                            ("met_p99", .bool(postgres.latency.quantile(0.99) <= 100))])))
        }
        return .object(figures + [
            ("clients", .int(Int64(clients))), ("saves_per_client", .int(Int64(saves))),
            ("db_connections", .string("serve's default (twice the cores); postgres_one_connection: --db-connections 1, as before the pool")),
            ("group_commit", .string("postgres.group_commit: serve's own count at exit of transactions, the writes they carried, mean and largest group")),
            ("timed", .string("HTTPCloud modifyRecords of one new record per call, \(clients) threads of this process against one `cloudsync serve`; CPU from /proc/PID/stat of serve over the load, peak RSS its VmHWM")),
        ])
    }

    func load(cloud: String, label: String, clients: Int, saves: Int, oneAccount: Bool, connections: Int? = nil) throws -> Outcome {
        log("[load] \(label): \(clients) clients × \(saves) saves")
        let accounts = oneAccount ? ["load"] : (0..<clients).map { "load\($0)" }
        let tokens = try accounts.map { try serve.token($0, cloud: cloud) }
        unlink(work + "/load-requests.log")  // appended to: this run's group commit line only
        let server = try LineProcess(executable: cloudsync, arguments: ["serve", "--listen", "127.0.0.1:0", "--cloud", cloud,
                                                                        "--log", work + "/load-requests.log"]
                                                                       + (connections.map { ["--db-connections", String($0)] } ?? []),
                                     environment: serve.environment(work + "/server-home"), stderrPath: work + "/load-serve.log")
        var stopped = false
        defer { if !stopped { _ = server.stop() } }
        guard let first = server.readLine(timeout: 30), first.hasPrefix("listening on ") else {
            throw BenchFailure("serve did not start; see \(work)/load-serve.log")
        }
        let base = String(first.dropFirst("listening on ".count))
        let ticksBefore = server.cpuTicks()
        let machineBefore = MachineCPU.now()
        let start = Clock.now()
        let results = runOnThreads(clients) { index -> Result<[Double], BenchFailure> in
            let account = oneAccount ? "load" : "load\(index)"
            let http = serve.client(base, tokens[oneAccount ? 0 : index])
            do {
                let request = try BenchCloud.request(http, account: account, device: "client-\(index)")
                let zone = request.zoneID(ZoneID.defaultZoneName)
                var samples: [Double] = []
                for n in 0..<saves {
                    let record = Record(recordID: RecordID(recordName: "c\(index)-\(n)", zoneID: zone), recordType: "Item",
                                        fields: ["count": .int64(Int64(n)), "title": .string("Save \(n) of client \(index)")])
                    samples.append(try BenchCloud.timedSave(record, with: http, in: request))
                }
                return .success(samples)
            } catch {
                return .failure(BenchFailure("client \(index): \(error)"))
            }
        }
        let seconds = Clock.now() - start
        let machine = MachineCPU.now()
        let cpu = Double(server.cpuTicks() - ticksBefore) / Double(sysconf(Int32(_SC_CLK_TCK)))
        var latencies: [Double] = []
        for result in results { latencies += try result.get() }
        let peak = Double(server.statusKiB("VmHWM")) / 1024
        _ = server.stop()
        stopped = true
        let requests = String(decoding: (try? readFile(work + "/load-requests.log")) ?? [], as: UTF8.self)
        let grouped = requests.split(separator: "\n").last { $0.contains("group commit: ") }
            .flatMap { line in line.firstRange(of: "group commit: ").map { String(line[$0.lowerBound...]) } }
        let outcome = Outcome(seconds: seconds, latency: LatencyStats(latencies), cpuSeconds: cpu,
                              peakMiB: peak, saves: latencies.count, groupCommit: grouped,
                              machineSeconds: machine.busySeconds(since: machineBefore),
                              clientSeconds: machine.ownSeconds - machineBefore.ownSeconds,
                              idleShare: machine.idleShare(since: machineBefore))
        log("  \(fixed(outcome.throughput)) saves/s, p50 \(fixed(outcome.latency.quantile(0.5))) ms, p99 \(fixed(outcome.latency.quantile(0.99))) ms, server CPU \(fixed(cpu, digits: 2)) s, clients \(fixed(outcome.clientSeconds, digits: 2)) s, machine \(fixed(outcome.machineSeconds, digits: 2)) s (idle \(fixed(outcome.idleShare * 100, digits: 0)) %), peak RSS \(fixed(outcome.peakMiB)) MiB" + (grouped.map { ", " + $0 } ?? ""))
        return outcome
    }
}
