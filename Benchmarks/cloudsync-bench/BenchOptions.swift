/// The command line of `cloudsync-bench`.
struct BenchOptions {
    /// Ten times smaller sizes, for CI smoke runs.
    var quick = false
    /// Skip the 1,000,000-record zone (its build, peak-RSS fetch and incremental case).
    var skipMillion = false
    /// Skip the local store's push, pull and sync (d) and the `store sync` process (e).
    var skipStore = false
    /// Only the `store sync` process (e), at its largest size (figure 7 of issue 28).
    var onlyStoreSync = false
    /// Also write the JSON document to this file.
    var jsonOut: String?
    /// Leave the temporary files behind (their folder is printed).
    var keepFiles = false
    /// Where the temporary folder goes.
    var workBase = "/tmp"
    /// The sqlite3 shell used for the baseline.
    var sqlite3 = "/usr/bin/sqlite3"
    /// Repetitions of the save and fetch measurements (median reported).
    var runs = 3
    /// Repetitions of the one-change incremental fetch (median reported).
    var incrementalRuns = 21
    /// ChangeFetcher and Synchronizer pull page size (nil: their default).
    var pageSize: Int?
    /// Synchronizer push batch size (nil: its default, 400).
    var batchSize: Int?
    /// The installable `cloudsync` whose `store sync` process (e) times; nil: (e) not measured.
    var cloudsync: String?

    static let usage = """
        usage: cloudsync-bench [--quick] [--skip-1m] [--skip-store] [--only-store-sync] [--json-out FILE] [--runs N]
                               [--incremental-runs N] [--page-size N] [--batch-size N] [--sqlite3 PATH]
                               [--work-dir DIR] [--keep-files] [--cloudsync PATH]

        Benchmarks of the embedded cloud, the device fetch and the local store's sync (build in
        release mode; see scripts/bench). Progress goes to stderr; one JSON document with every
        figure goes to stdout.

          --quick               10x smaller sizes (10k save and store push/pull, 100k "large" zone,
                                1k/100k incremental)
          --skip-1m             skip the large-zone cases (peak RSS of the big fetch, incremental on it)
          --skip-store          skip the local store's push, pull and sync
          --only-store-sync     only the `store sync` process (needs --cloudsync), 100k pending
                                records (10k with --quick), --runs rounds alternated with sqlite3
          --json-out FILE       also write the JSON document to FILE
          --runs N              repetitions of the save and fetch measurements (default 3)
          --incremental-runs N  repetitions of the one-change fetch (default 21)
          --page-size N         ChangeFetcher and store pull page size (default: theirs, 2000)
          --batch-size N        store push batch size, 1-400 (default: the synchronizer's, 400)
          --sqlite3 PATH        sqlite3 shell for the baseline (default /usr/bin/sqlite3)
          --work-dir DIR        parent folder of the temporary files (default /tmp)
          --keep-files          keep the temporary files
          --cloudsync PATH      time `cloudsync store sync` as a process with this executable
                                (20k and 100k pending records; 2k and 10k with --quick);
                                scripts/bench passes the one of scripts/build-release

        scripts/bench then runs scripts/bench-backend (PostgreSQL and `cloudsync serve`, see its
        --help) with --quick, --skip-1m, --runs N and --postgres URL; --skip-backend skips it.
        """

    /// A bad command line.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses the arguments after the program name.
    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return next
        }
        func count(_ flag: String) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let n = Int(text), n > 0 else { throw UsageError(description: "\(flag) needs a positive number, got '\(text)'") }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--skip-1m": skipMillion = true
            case "--skip-store": skipStore = true
            case "--only-store-sync": onlyStoreSync = true
            case "--json-out": jsonOut = try value(argument)
            case "--keep-files": keepFiles = true
            case "--work-dir": workBase = try value(argument)
            case "--sqlite3": sqlite3 = try value(argument)
            case "--cloudsync": cloudsync = try value(argument)
            case "--runs": runs = try count(argument)
            case "--incremental-runs": incrementalRuns = try count(argument)
            case "--page-size": pageSize = try count(argument)
            case "--batch-size":
                let size = try count(argument)
                guard size <= 400 else { throw UsageError(description: "--batch-size takes at most 400, got \(size)") }
                batchSize = size
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
    }

    /// Records saved in (a) and fetched in (b).
    var saveRows: Int { quick ? 10_000 : 100_000 }
    /// Pending records pushed and pulled in (d): the records of (a), so that (a)'s sqlite3
    /// script is the baseline.
    var storeRows: Int { saveRows }
    /// The large zone of the peak-RSS fetch and the large incremental case.
    var largeZone: Int { quick ? 100_000 : 1_000_000 }
    /// The small incremental case.
    var smallZone: Int { quick ? 1_000 : 10_000 }
}
