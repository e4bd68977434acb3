import CloudSyncCore

/// Runs (a) save, (b) fetch, (d) the local store's push, pull and sync, (e) `cloudsync store
/// sync` as a process (with --cloudsync), then (b)'s large-zone peak-RSS case and (c)
/// incremental fetch (the large cloud built for (b) is reused by (c)), and assembles the JSON
/// document. (d) runs right after (a) and (b) because it reuses (a)'s sqlite3 script as its
/// baseline. Throughput targets are ratios to the sqlite3 shell inserting the same rows in the
/// same run, since absolute rates do not travel between machines.
struct BenchRunner {
    let options: BenchOptions

    func run() throws -> JSONValue {
        let start = MonotonicClock.now()
        let loadAtStart = MachineInfo.loadJSON()
        let work = try WorkDirectory(base: options.workBase, keep: options.keepFiles)
        defer { work.cleanUp() }
        Log.line("cloudsync-bench (\(options.quick ? "quick" : "full") sizes), files in \(work.path), \(MachineInfo.cores) cores, load \(MachineInfo.loadAverages.map { Log.fixed($0, 2) }.joined(separator: " "))")
        if options.onlyStoreSync { return try onlyStoreSync(work: work, start: start, loadAtStart: loadAtStart) }

        let save = try SaveBenchmark(options: options, work: work).run()
        let fetch = try FetchBenchmark(options: options, work: work).run(cloudPath: save.cloudPath, records: save.rows)
        work.removeDatabase("save-\(options.runs).sqlite")
        let store = try runStore(save, work: work)
        let process = options.skipStore ? nil : options.cloudsync.map { StoreSyncProcessBenchmark(options: options, work: work, cloudsync: $0) }
        let syncCases = try process?.run()
        let large = options.skipMillion ? nil : try LargeFetchBenchmark(options: options, work: work).run()
        let incremental = try IncrementalBenchmark(options: options, work: work).run(large: large)

        // nil: not measured in this run (--skip-1m, --skip-store); such targets count neither way.
        let targets: [(String, Bool?)] = [
            ("save", save.ratio >= SaveBenchmark.target),
            ("fetch", fetch.ratio(to: save.rawRate) >= FetchBenchmark.targetRatio),
            ("fetch_1m", large.map { $0.peakMiB < LargeFetchBenchmark.targetMiB }),
            ("incremental", incremental.ratio.map { $0 <= IncrementalBenchmark.targetRatio }),
            ("store_push", store?.ratioMet),
            ("store_push_rss", store?.peakMet),
            ("store_pull", store?.pullMet),
        ] + (syncCases ?? []).flatMap { c -> [(String, Bool?)] in
            [("store_sync_process_\(c.rows)", c.ratioMet), ("store_sync_process_\(c.rows)_rss", c.peakMet)]
                + (c.query.map { [("store_query", $0.met)] } ?? [])
        } + (syncCases == nil ? [("store_sync_process", nil)] : [])
        let met = targets.compactMap(\.1)
        let total = MonotonicClock.now() - start
        Log.line("done in \(Log.fixed(total)) s; targets \(met.allSatisfy { $0 } ? "all met" : "NOT all met")")
        let missed: [JSONValue] = targets.filter { $0.1 == false }.map { .string($0.0) }
        let notMeasured: [JSONValue] = targets.filter { $0.1 == nil }.map { .string($0.0) }
        let pairs: [(String, JSONValue)] = [
            ("mode", .string(options.quick ? "quick" : "full")),
            ("save", save.json(sqlite3: options.sqlite3)),
            ("fetch", fetch.json(baselineRate: save.rawRate)),
            ("fetch_1m", large?.json() ?? .null),
            ("incremental", incremental.json()),
            ("store_push", store?.pushJSON() ?? .null),
            ("store_push_rss", store?.peakJSON() ?? .null),
            ("store_pull", store?.pullJSON() ?? .null),
            ("store_sync", store?.syncJSON() ?? .null),
            ("store_sync_process", process.flatMap { p in syncCases.map { p.json($0) } } ?? .null),
            ("all_targets_met", .bool(met.allSatisfy { $0 })),
            ("targets_missed", .array(missed)),
            ("targets_not_measured", .array(notMeasured)),
            ("machine", .object([("cores", JSONFigures.int(MachineInfo.cores)),
                                 ("load_at_start", loadAtStart), ("load_at_end", MachineInfo.loadJSON())])),
            ("clock", .string("CLOCK_MONOTONIC")),
            ("total_seconds", JSONFigures.number(total, 1)),
        ]
        return .object(pairs)
    }

    /// `--only-store-sync`: (e) alone, at its largest size (figure 7 of issue 28).
    func onlyStoreSync(work: WorkDirectory, start: Double, loadAtStart: JSONValue) throws -> JSONValue {
        guard let cloudsync = options.cloudsync else { throw BenchError("--only-store-sync needs --cloudsync PATH") }
        let process = StoreSyncProcessBenchmark(options: options, work: work, cloudsync: cloudsync)
        let cases = try process.run()
        return .object([
            ("mode", .string(options.quick ? "quick" : "full")),
            ("store_sync_process", process.json(cases)),
            ("all_targets_met", .bool(cases.allSatisfy { $0.ratioMet && $0.peakMet })),
            ("machine", .object([("cores", JSONFigures.int(MachineInfo.cores)),
                                 ("load_at_start", loadAtStart), ("load_at_end", MachineInfo.loadJSON())])),
            ("total_seconds", JSONFigures.number(MonotonicClock.now() - start, 1)),
        ])
    }

    /// (d), unless skipped.
    func runStore(_ save: SaveBenchmark.Result, work: WorkDirectory) throws -> StoreBenchmark.Result? {
        guard !options.skipStore else { return nil }
        guard let baseline = save.baseline else { throw BenchError("the save benchmark left no sqlite3 script") }
        return try StoreBenchmark(options: options, work: work).run(baseline: baseline, cloudSaveRate: save.oursRate)
    }
}
