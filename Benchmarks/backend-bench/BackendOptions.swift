import BenchSupport
/// The command line of `backend-bench`.
struct BackendOptions {
    var quick = false
    var skipMillion = false
    var skipPostgres = false
    var skipServe = false
    var hostile = false
    var paging = false
    var load = false
    var cluster = false
    var clusterScript: String?
    var replicas = false
    var replicaURL: String?
    var replicaClients = 16
    var replicaReads = 200
    var loadClients = 32
    var loadSaves = 200
    /// `--load-only CLOUD`: one load (each client its own account) over that cloud alone, to profile it.
    var loadOnly: String?
    var skipPaging = false
    var postgresURL: String?
    var cloudsync: String?
    var jsonOut: String?
    var workBase = "/tmp"
    var runs = 1
    var incrementalRuns = 21
    var clients = 64
    var modifiesPerClient = 20
    var notifications = 200

    static let usage = """
        usage: backend-bench [--quick] [--skip-1m] [--skip-postgres] [--skip-serve] [--hostile] [--paging]
                             [--skip-paging] [--load] [--cluster] [--load-clients N] [--load-saves N] [--load-only CLOUD]
                             [--postgres URL]
                             [--replicas] [--replica URL] [--replica-clients N] [--replica-reads N]
                             [--runs N] [--incremental-runs N] [--clients N] [--modifies N]
                             [--notifications N] [--cloudsync PATH] [--work-dir DIR] [--json-out FILE]

        The PostgreSQL backend (issue 11) and `cloudsync serve` (issue 12) against the embedded
        SQLite cloud, measured in the same run. Build in release mode (scripts/bench-backend).

          --postgres URL        PostgresCloud URL (default $CLOUDSYNC_TEST_POSTGRES_URL; without
                                either the PostgreSQL part is skipped). Each part uses its own
                                `schema=` in that database.
          --quick               10x smaller sizes
          --hostile             only the hostile-client part (issue 25): a legitimate client's
                                p50/p99 against serve, quiet and beside 300 dribbling connections
                                and 300 long polls, with serve's limits and with those of before;
                                and alice's public saves beside another account's widest allowed
                                query subscriptions (100 of 1,000 comparisons), against clean
          --paging              only the paging part (issue 28, figures 5 and 6): `record query --all`
                                against `fetch-changes` of the same 20,000 records (ratio, goal
                                <= 2), embedded and through serve; and the bytes per record of a
                                changes read on the wire, plain and with gzip
          --skip-paging         leave the paging part out of a full run
          --load                only the load part (issue 28, figures 1, 2 and 4): --load-clients
                                (32) clients x --load-saves (200) one-record saves through one
                                serve over PostgreSQL (its connection pool) against SQLite, each
                                client its own account, then all on one account: throughput ratio,
                                p99, server CPU s per 1,000 saves and peak RSS
          --load-only CLOUD     with --load: only the own-accounts load over CLOUD (sqlite or
                                postgres), no ratio; to run under `perf record -a`
          --cluster             only the cluster part (issue 28): scripts/cluster start --nodes 2
                                (PostgreSQL primary + replica, 2 serve nodes, HAProxy), then the
                                --load-clients x --load-saves saves through the balancer against
                                the same straight to one node, --runs alternated rounds: throughput
                                ratio, p99, the nodes' CPU s per 1,000 saves, each node's peak RSS
                                (< 200 MB); needs --cluster-script PATH (scripts/bench-backend
                                passes scripts/cluster)
          --replicas            only the read-replica part (issue 28, figure 3): --replica-clients
                                (16) clients x --replica-reads (200) lookups of 20 records, through
                                2 serve nodes with --read-replica against 1 node without, same run:
                                throughput ratio and the share of reads the replica answered (and
                                2 nodes without a replica, to tell the parts apart)
          --replica URL         the streaming replica of --postgres (default
                                $CLOUDSYNC_TEST_POSTGRES_REPLICA_URL, which scripts/with-postgres sets)
          --skip-1m             skip the 1,000,000-record zone of the PostgreSQL incremental case
          --runs N              repetitions of the save and fetch timings (median; default 1)
          --clients N           concurrent clients of the modify-latency case (default 64)
          --modifies N          one-record modifies per client (default 20)
          --notifications N     commits timed to the remote listener (default 200)
          --cloudsync PATH      the cloudsync executable (default: next to this one)
        """

    init(arguments: [String], environment postgres: String?, replica: String? = nil) throws {
        postgresURL = postgres.flatMap { $0.isEmpty ? nil : $0 }
        replicaURL = replica.flatMap { $0.isEmpty ? nil : $0 }
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchFailure("\(flag) needs a value") }
            return next
        }
        func count(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let n = Int(text), n > 0 else { throw BenchFailure("\(flag) needs a positive number, got '\(text)'") }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--skip-1m": skipMillion = true
            case "--skip-postgres": skipPostgres = true
            case "--skip-serve": skipServe = true
            case "--hostile": hostile = true
            case "--paging": paging = true
            case "--skip-paging": skipPaging = true
            case "--load": load = true
            case "--cluster": cluster = true
            case "--cluster-script": clusterScript = try value(argument)
            case "--replicas": replicas = true
            case "--replica": replicaURL = try value(argument)
            case "--replica-clients": replicaClients = try count(argument)
            case "--replica-reads": replicaReads = try count(argument)
            case "--load-clients": loadClients = try count(argument)
            case "--load-saves": loadSaves = try count(argument)
            case "--load-only":
                let cloud = try value(argument)
                guard ["sqlite", "postgres"].contains(cloud) else {
                    throw BenchFailure("--load-only takes sqlite or postgres, got '\(cloud)'")
                }
                loadOnly = cloud
            case "--postgres": postgresURL = try value(argument)
            case "--cloudsync": cloudsync = try value(argument)
            case "--json-out": jsonOut = try value(argument)
            case "--work-dir": workBase = try value(argument)
            case "--runs": runs = try count(argument)
            case "--incremental-runs": incrementalRuns = try count(argument)
            case "--clients": clients = try count(argument)
            case "--modifies": modifiesPerClient = try count(argument)
            case "--notifications": notifications = try count(argument)
            default: throw BenchFailure("unknown argument '\(argument)'")
            }
        }
    }

    /// PostgreSQL save and fetch size.
    var postgresRows: Int { quick ? 10_000 : 100_000 }
    var smallZone: Int { quick ? 1_000 : 10_000 }
    var largeZone: Int { quick ? 100_000 : 1_000_000 }
    /// serve: records saved through the server, and fetched from it.
    var serveSaveRows: Int { quick ? 1_000 : 10_000 }
    var serveFetchRows: Int { quick ? 10_000 : 100_000 }
    /// The paging part: records queried and fetched.
    var pagingRows: Int { quick ? 2_000 : 20_000 }
}
