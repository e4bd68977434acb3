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

        // nil: not measured in this run (--skip-1m); such targets count neither way.
        let targets: [(String, Bool?)] = [
            ("save", save.ratio >= SaveBenchmark.target),
            ("fetch", fetch.rate >= FetchBenchmark.targetRecordsPerSecond),
            ("fetch_1m", large.map { $0.peakMiB < LargeFetchBenchmark.targetMiB }),
            ("incremental", incremental.ratio.map { $0 <= IncrementalBenchmark.targetRatio }),
        ]
        let met = targets.compactMap(\.1)
        let total = MonotonicClock.now() - start
        Log.line("done in \(Log.fixed(total)) s; targets \(met.allSatisfy { $0 } ? "all met" : "NOT all met")")
        return .object([
            ("mode", .string(options.quick ? "quick" : "full")),
            ("save", save.json(sqlite3: options.sqlite3)),
            ("fetch", fetch.json()),
            ("fetch_1m", large?.json() ?? .null),
            ("incremental", incremental.json()),
            ("all_targets_met", .bool(met.allSatisfy { $0 })),
            ("targets_missed", .array(targets.filter { $0.1 == false }.map { .string($0.0) })),
            ("targets_not_measured", .array(targets.filter { $0.1 == nil }.map { .string($0.0) })),
            ("machine", .object([("cores", JSONFigures.int(MachineInfo.cores)),
                                 ("load_at_start", loadAtStart), ("load_at_end", MachineInfo.loadJSON())])),
            ("clock", .string("CLOCK_MONOTONIC")),
            ("total_seconds", JSONFigures.number(total, 1)),
        ])
    }
}
