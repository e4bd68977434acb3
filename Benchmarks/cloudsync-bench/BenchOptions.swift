/// The command line of `cloudsync-bench`.
struct BenchOptions {
    /// Ten times smaller sizes, for CI smoke runs.
    var quick = false
    /// Skip the 1,000,000-record zone (its build, peak-RSS fetch and incremental case).
    var skipMillion = false
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
    /// ChangeFetcher page size (nil: its default).
    var pageSize: Int?

    static let usage = """
        usage: cloudsync-bench [--quick] [--skip-1m] [--json-out FILE] [--runs N] [--incremental-runs N]
                               [--page-size N] [--sqlite3 PATH] [--work-dir DIR] [--keep-files]

        Benchmarks of the embedded cloud and the device fetch (build in release mode; see scripts/bench).
        Progress goes to stderr; one JSON document with every figure goes to stdout.

          --quick               10x smaller sizes (10k save, 100k "large" zone, 1k/100k incremental)
          --skip-1m             skip the large-zone cases (peak RSS of the big fetch, incremental on it)
          --json-out FILE       also write the JSON document to FILE
          --runs N              repetitions of the save and fetch measurements (default 3)
          --incremental-runs N  repetitions of the one-change fetch (default 21)
          --page-size N         ChangeFetcher page size (default: the fetcher's own, 2000)
          --sqlite3 PATH        sqlite3 shell for the baseline (default /usr/bin/sqlite3)
          --work-dir DIR        parent folder of the temporary files (default /tmp)
          --keep-files          keep the temporary files
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
            case "--json-out": jsonOut = try value(argument)
            case "--keep-files": keepFiles = true
            case "--work-dir": workBase = try value(argument)
            case "--sqlite3": sqlite3 = try value(argument)
            case "--runs": runs = try count(argument)
            case "--incremental-runs": incrementalRuns = try count(argument)
            case "--page-size": pageSize = try count(argument)
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
    }

    /// Records saved in (a) and fetched in (b).
    var saveRows: Int { quick ? 10_000 : 100_000 }
    /// The large zone of the peak-RSS fetch and the large incremental case.
    var largeZone: Int { quick ? 100_000 : 1_000_000 }
    /// The small incremental case.
    var smallZone: Int { quick ? 1_000 : 10_000 }
}
