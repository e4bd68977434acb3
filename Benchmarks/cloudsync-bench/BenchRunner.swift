import CloudSyncCore

/// Runs (a) save, (b) fetch and its large-zone peak-RSS case, (c) incremental fetch, in that
/// order (the large cloud built for (b) is reused by (c)), and assembles the JSON document.
struct BenchRunner {
    let options: BenchOptions

    func run() throws -> JSONValue {
        let start = MonotonicClock.now()
        let loadAtStart = MachineInfo.loadJSON()
        let work = try WorkDirectory(base: options.workBase, keep: options.keepFiles)
        defer { work.cleanUp() }
        Log.line("cloudsync-bench (\(options.quick ? "quick" : "full") sizes), files in \(work.path), \(MachineInfo.cores) cores, load \(MachineInfo.loadAverages.map { Log.fixed($0, 2) }.joined(separator: " "))")

        let save = try SaveBenchmark(options: options, work: work).run()
        let fetch = try FetchBenchmark(options: options, work: work).run(cloudPath: save.cloudPath, records: save.rows)
        work.removeDatabase("save-\(options.runs).sqlite")
        let large = options.skipMillion ? nil : try LargeFetchBenchmark(options: options, work: work).run()
        let incremental = try IncrementalBenchmark(options: options, work: work).run(large: large)

        let met = [save.ratio >= SaveBenchmark.target,
                   fetch.rate >= FetchBenchmark.targetRecordsPerSecond,
                   large.map { $0.peakMiB < LargeFetchBenchmark.targetMiB } ?? true,
                   incremental.ratio.map { $0 <= IncrementalBenchmark.targetRatio } ?? true]
        let total = MonotonicClock.now() - start
        Log.line("done in \(Log.fixed(total)) s; targets \(met.allSatisfy { $0 } ? "all met" : "NOT all met")")
        return .object([
            ("mode", .string(options.quick ? "quick" : "full")),
            ("save", save.json(sqlite3: options.sqlite3)),
            ("fetch", fetch.json()),
            ("fetch_1m", large?.json() ?? .null),
            ("incremental", incremental.json()),
            ("all_targets_met", .bool(met.allSatisfy { $0 })),
            ("machine", .object([("cores", JSONFigures.int(MachineInfo.cores)),
                                 ("load_at_start", loadAtStart), ("load_at_end", MachineInfo.loadJSON())])),
            ("clock", .string("CLOCK_MONOTONIC")),
            ("total_seconds", JSONFigures.number(total, 1)),
        ])
    }
}
