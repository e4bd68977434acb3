import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice

/// (b) Fetching every change of the saved zone into a fresh device with `ChangeFetcher`:
/// records/s measured in this process (median of the runs) as a ratio to the sqlite3 shell
/// inserting the same rows in the same run (save's baseline), and the peak memory of the same
/// fetch run alone in a child process.
struct FetchBenchmark {
    /// Fetch rate / the sqlite3 bulk insert's rate of the same rows (issue 16).
    static let targetRatio = 0.8

    let options: BenchOptions
    let work: WorkDirectory

    /// The measurements.
    struct Result {
        var records: Int
        var pageSize = 0
        /// Open a fresh device file + fetch everything, in this process.
        var inProcess = Samples()
        var child: ChildMeasurement?

        var rate: Double { Double(records) / inProcess.median }
        /// The rate as a ratio to the sqlite3 insert of the same rows (rows/s), measured in
        /// the same run.
        func ratio(to baselineRate: Double) -> Double { rate / baselineRate }

        func json(baselineRate: Double) -> JSONValue {
            .object([
                ("records", JSONFigures.int(records)),
                ("page_size", JSONFigures.int(pageSize)),
                ("runs", JSONFigures.int(inProcess.count)),
                ("records_per_s", JSONFigures.rate(rate)),
                ("sqlite3_rows_per_s", JSONFigures.rate(baselineRate)),
                ("ratio", JSONFigures.number(ratio(to: baselineRate))),
                ("target", .double(FetchBenchmark.targetRatio)),
                ("met", .bool(ratio(to: baselineRate) >= FetchBenchmark.targetRatio)),
                ("baseline", .string("save's sqlite3 insert of the same rows, same run")),
                ("seconds", JSONFigures.seconds(inProcess)),
                ("noise_relative_spread", JSONFigures.number(inProcess.relativeSpread)),
                ("timed", .string("open a fresh DeviceStore + ChangeFetcher.fetch() of the whole database, in the bench process")),
                ("peak_rss_mb", child.map { JSONFigures.number($0.peakMiB, 1) } ?? .null),
                ("child", child?.json() ?? .null),
            ])
        }
    }

    /// Fetches the zone of `cloudPath` (holding `records` records) `options.runs` times.
    func run(cloudPath: String, records: Int) throws -> Result {
        var result = Result(records: records)
        Log.line("(b) fetch \(records) records into a fresh device")
        let cloud = try SQLiteCloud(path: cloudPath)
        let request = try BenchSetup.request(cloud)
        for run in 1...options.runs {
            let name = "fetch-device-\(run).sqlite"
            work.removeDatabase(name)
            let start = MonotonicClock.now()
            let store = try DeviceStore(path: work.file(name))
            var fetcher = ChangeFetcher(cloud: cloud, store: store, request: request)
            if let size = options.pageSize { fetcher.pageSize = size }
            result.pageSize = fetcher.pageSize
            let summary = try fetcher.fetch()
            let seconds = MonotonicClock.now() - start
            guard summary.changedRecords == records else {
                throw BenchError("fetched \(summary.changedRecords) records, expected \(records)")
            }
            result.inProcess.append(seconds)
            Log.line("  run \(run): \(Log.fixed(seconds, 3)) s  \(Int(Double(records) / seconds)) records/s (\(summary.pages) pages)")
            work.removeDatabase(name)
        }
        let device = "fetch-device-child.sqlite"
        work.removeDatabase(device)
        let child = try ChildMeasurement.run(.fetch, cloud: cloudPath, device: work.file(device), size: options.pageSize,
                                             expected: records, work: work)
        work.removeDatabase(device)
        result.child = child
        Log.line("  child process: \(Log.fixed(child.seconds, 3)) s fetch, peak RSS \(Log.fixed(child.peakMiB)) MB")
        Log.line("  median: \(Int(result.rate)) records/s")
        return result
    }
}
