import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A cluster of `scripts/cluster`: a PostgreSQL primary and streaming replica, `serve` nodes
/// and HAProxy in front, all real processes on 127.0.0.1 ports, in a temporary folder. It is
/// stopped (nothing left running) by `stop()`, which the tests call in a `defer`. A machine
/// without haproxy (or PostgreSQL) fails the test: `start` exits 69, never a skip.
final class ClusterFixture: @unchecked Sendable {
    static let repository: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    let folder = TemporaryDirectory("cluster")
    let directory: String
    /// The variables of `D/cluster.env`.
    let settings: [String: String]
    var balancerURL: String { settings["CLOUDSYNC_CLUSTER_URL"] ?? "" }
    var postgresURL: String { settings["CLOUDSYNC_CLUSTER_POSTGRES_URL"] ?? "" }
    private var stopped = false

    struct StartFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// `environment`: variables for `scripts/cluster start` (such as `CLOUDSYNC_CLUSTER_TIMEOUT`).
    init(nodes: Int = 2, environment: [String: String] = [:]) throws {
        directory = folder.file("cluster")
        let started = Self.script(["start", "--nodes", String(nodes), "--dir", directory, "--cloudsync", BinaryRunner.cloudsyncPath],
                                  environment: environment)
        guard started.status == 0 else {
            Issue.record("scripts/cluster start exited \(started.status): \(started.stderr)")
            throw StartFailed(description: started.stderr)
        }
        var settings: [String: String] = [:]
        for line in BackgroundProcess.read(directory + "/cluster.env").split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        self.settings = settings
        #expect(started.stdout.trimmingCharacters(in: " \n") == balancerURL, "start prints the balancer URL: \(started.stdout)")
        // Every node reads from the replica, which it met before it had replayed the tables:
        // that is no warning (the replica is behind, not failing).
        for n in 1...nodes {
            let command = BackgroundProcess.read(directory + "/node-\(n)/command")
            #expect(command.contains("--read-replica"), "node \(n) is given the replica: \(command)")
            let errors = BackgroundProcess.read(directory + "/node-\(n)/serve.err")
            #expect(!errors.contains("warning:"), "node \(n) started without a warning: \(errors)")
        }
    }

    deinit { stop() }

    /// Runs scripts/cluster with `arguments`.
    static func script(_ arguments: [String], environment: [String: String] = [:]) -> ProcessResult {
        ProcessSpawner.run("/bin/bash", [repository + "/scripts/cluster"] + arguments,
                           environment: ["PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
                                         "TMPDIR": "/tmp"].merging(environment) { _, given in given })
    }

    /// The 5xx replies HAProxy's frontend sent (its own 502/503/504 and the nodes'), from its
    /// stats CSV (column `hrsp_5xx`); nil when the stats cannot be read.
    func balancerServerErrors() -> Int? {
        let csv = ProcessSpawner.run("/usr/bin/curl", ["-fsS", (settings["CLOUDSYNC_CLUSTER_STATS_URL"] ?? "") + "/;csv"],
                                     environment: [:]).stdout
        let lines = csv.split(separator: "\n")
        guard let header = lines.first?.dropFirst(2).split(separator: ",", omittingEmptySubsequences: false),
              let column = header.firstIndex(of: "hrsp_5xx") else { return nil }
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields.count > column, fields[0] == "cloudsync_in", fields[1] == "FRONTEND" { return Int(fields[column]) }
        }
        return nil
    }

    func run(_ arguments: [String]) -> ProcessResult {
        Self.script(arguments + ["--dir", directory])
    }

    /// The URL of node `n` (1-based), straight, not through the balancer.
    func nodeURL(_ n: Int) -> String { settings["CLOUDSYNC_CLUSTER_NODE_\(n)_URL"] ?? "" }

    /// Node `n`'s request log.
    func requestLog(_ n: Int) -> String { BackgroundProcess.read(directory + "/node-\(n)/requests.log") }

    /// A token of `account`, made on the primary (`cloudsync token create`).
    func token(_ account: String) throws -> String {
        let home = TemporaryDirectory("cluster-token")
        let made = BinaryRunner(home: home.path).run(["token", "create", "--account", account, "--cloud", postgresURL])
        guard made.status == 0, let line = made.stdout.split(separator: "\n").first else {
            Issue.record("token create failed: \(made.stderr)")
            throw StartFailed(description: made.stderr)
        }
        return String(line)
    }

    /// The PIDs of the cluster's processes now: nodes, HAProxy, both PostgreSQL servers.
    func processIDs() -> [pid_t] {
        let postgres = BackgroundProcess.read(directory + "/pg-path").trimmingCharacters(in: "\n")
        var files = ["haproxy.pid"].map { directory + "/" + $0 } + ["primary", "replica"].map { postgres + "/\($0)/postmaster.pid" }
        files += (1...3).map { directory + "/node-\($0)/pid" }
        return files.compactMap { file in
            BackgroundProcess.read(file).split(separator: "\n").first.flatMap { pid_t(String($0)) }
        }
    }

    /// Whether `pid` runs: it exists and is not a zombie (ended, not yet reaped by its parent).
    static func isRunning(_ pid: pid_t) -> Bool {
        let stat = BackgroundProcess.read("/proc/\(pid)/stat")
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state != nil && state != "Z" && state != "X"
    }

    /// Stops the cluster (once) and checks that its processes are gone and its folders removed.
    func stop() {
        guard !stopped else { return }
        stopped = true
        let running = processIDs()
        let postgres = BackgroundProcess.read(directory + "/pg-path").trimmingCharacters(in: "\n")
        #expect(running.count >= 4, "HAProxy, both PostgreSQL servers and a node at least: \(running)")
        let result = run(["stop"])
        #expect(result.status == 0, "scripts/cluster stop: \(result.stderr)")
        #expect(access(directory, F_OK) != 0, "stop removes the cluster's folder")
        #expect(postgres.isEmpty || access(postgres, F_OK) != 0, "stop removes PostgreSQL's folder")
        for pid in running {
            #expect(!Self.isRunning(pid), "process \(pid) of the cluster still runs after stop")
        }
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
