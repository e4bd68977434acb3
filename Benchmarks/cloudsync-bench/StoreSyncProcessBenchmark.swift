import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// (e) `cloudsync store sync` as the user runs it (issue 16): one `cloudsync` process (the
/// installable binary of scripts/build-release) syncing a device whose local store holds N
/// pending records into a fresh embedded cloud (push, then the pull of the same sync), timed
/// as a whole process from spawn to exit, against the sqlite3 shell inserting the same N rows
/// (an index on the sequence column, one transaction) in the same run, interleaved. N is 20,000
/// and 100,000 (2,000 and 10,000 with --quick). Peak RSS is the sync process's ru_maxrss (it
/// is started through `ProcessRelay`, so that the bench's own peak is not carried into it).
/// Then, on the synced device of the largest size, `cloudsync store query` with a filter,
/// against the sqlite3 shell running the same filter on the same file.
struct StoreSyncProcessBenchmark {
    static let targetRatio = 0.3
    static let targetMiB = 150.0
    static let queryTargetSeconds = 0.1
    static let queryRuns = 7

    let options: BenchOptions
    let work: WorkDirectory
    /// The `cloudsync` executable.
    let cloudsync: String

    /// One size.
    struct Case {
        var rows: Int
        var sync = Samples()
        var syncCPU = Samples()
        var raw = Samples()
        var rawCPU = Samples()
        var peakKiB: [Int] = []
        /// What each sync process reported (the last run's).
        var saved = 0
        var pulledChanges = 0
        /// `store query` on the synced device (largest size only).
        var query: Query?

        var ratio: Double { raw.median / sync.median }
        var cpuRatio: Double { rawCPU.median / syncCPU.median }
        var peakMiB: Double { Double(peakKiB.max() ?? 0) / 1024 }
        var ratioMet: Bool { ratio >= StoreSyncProcessBenchmark.targetRatio }
        var peakMet: Bool { peakMiB < StoreSyncProcessBenchmark.targetMiB }

        func json() -> JSONValue {
            .object([
                ("records", JSONFigures.int(rows)),
                ("runs", JSONFigures.int(sync.count)),
                ("ours_records_per_s", JSONFigures.rate(Double(rows) / sync.median)),
                ("sqlite3_rows_per_s", JSONFigures.rate(Double(rows) / raw.median)),
                ("ratio", JSONFigures.number(ratio)),
                ("target", .double(StoreSyncProcessBenchmark.targetRatio)),
                ("met", .bool(ratioMet)),
                ("process_seconds", JSONFigures.seconds(sync)),
                ("sqlite3_seconds", JSONFigures.seconds(raw)),
                ("cpu", .object([("sync_seconds", JSONFigures.seconds(syncCPU)), ("sqlite3_seconds", JSONFigures.seconds(rawCPU)),
                                 ("ratio", JSONFigures.number(cpuRatio))])),
                ("peak_rss_mb", JSONFigures.number(peakMiB, 1)),
                ("target_rss_mb", .double(StoreSyncProcessBenchmark.targetMiB)),
                ("rss_met", .bool(peakMet)),
                ("saved", JSONFigures.int(saved)),
                ("pulled_changes", JSONFigures.int(pulledChanges)),
            ])
        }
    }

    /// `cloudsync store query TYPE --where FILTER --json` as a process.
    struct Query {
        var records: Int
        var filter: String
        var matches: Int
        var process = Samples()
        var sqlite3 = Samples()

        var met: Bool { process.median < StoreSyncProcessBenchmark.queryTargetSeconds }

        func json() -> JSONValue {
            .object([
                ("local_records", JSONFigures.int(records)),
                ("command", .string("cloudsync store query \(BenchSetup.recordType) --where \"\(filter)\" --json")),
                ("matches", JSONFigures.int(matches)),
                ("runs", JSONFigures.int(process.count)),
                ("process_seconds", JSONFigures.seconds(process)),
                ("target_seconds", .double(StoreSyncProcessBenchmark.queryTargetSeconds)),
                ("met", .bool(met)),
                ("sqlite3_seconds", JSONFigures.seconds(sqlite3)),
                ("ratio_to_sqlite3", JSONFigures.number(sqlite3.median / process.median)),
                ("baseline", .string("the sqlite3 shell counting the same matches on the same device file (json_extract on the fields column), interleaved")),
            ])
        }
    }

    /// The sizes measured.
    var sizes: [Int] {
        if options.onlyStoreSync { return options.quick ? [10_000] : [100_000] }
        return options.quick ? [2_000, 10_000] : [20_000, 100_000]
    }

    func run() throws -> [Case] {
        try sizes.map(measure)
    }

    func json(_ cases: [Case]) -> JSONValue {
        .object([
            ("timed", .string("the whole `cloudsync --home H --account \(BenchSetup.accountName) --device \(BenchSetup.deviceID) --container \(BenchSetup.container) --quiet store sync --json` process, spawn to exit: a device whose local store holds N pending records (sync on, nothing synced yet) into a fresh embedded cloud; push, then the pull of the same sync"))
            ,("executable", .string(cloudsync)),
            ("baseline", .string("the sqlite3 shell inserting the same N records as rows (index on the sequence column, one transaction; the script of save.baseline for N rows), interleaved with the syncs")),
            ("cases", .array(cases.map { $0.json() })),
            ("store_query", cases.compactMap(\.query).first?.json() ?? .null),
        ])
    }

    /// The `cloudsync` arguments that address the bench's account and device in `home`.
    func arguments(home: String) -> [String] {
        ["--home", home, "--cloud", "sqlite://" + home + "/cloud.sqlite", "--account", BenchSetup.accountName,
         "--device", BenchSetup.deviceID, "--container", BenchSetup.container, "--quiet"]
    }

    func measure(_ rows: Int) throws -> Case {
        Log.line("(e) `cloudsync store sync` process, \(rows) pending records")
        let template = work.file("sync-home-\(rows)")
        try removeTree(template)
        defer { try? removeTree(template) }
        try makeDirectory(template)
        // Sync on for the account, with nothing to sync yet: a fresh cloud and an empty device.
        let on = try Spawn.run(cloudsync, arguments(home: template) + ["store", "sync", "on"], stdoutPath: "/dev/null")
        guard on.status == 0 else { throw BenchError("`cloudsync store sync on` exited with status \(on.status)") }
        let device = DeviceStore.defaultPath(home: template, account: BenchSetup.accountName, device: BenchSetup.deviceID)
        let seconds = try MonotonicClock.measure { try StoreWorkload.buildPendingDevice(device, rows: rows) }.seconds
        Log.line("  \(rows) records put (not timed): \(Log.fixed(seconds, 2)) s")
        let zone = ZoneID(zoneName: StoreWorkload.zoneName, ownerRecordName: "")
        let baseline = try SQLiteBaseline.prepare(sqlite3: options.sqlite3, batches: SampleRecords.batches(0..<rows, zone: zone),
                                                  in: work, name: "baseline-\(rows)")
        defer {
            FileIO.remove(baseline.scriptPath)
            FileIO.remove(baseline.emptyScriptPath)
        }
        var result = Case(rows: rows)
        let home = work.file("sync-home-run")
        for run in 1...options.runs {
            try removeTree(home)
            try copyTree(template, to: home)
            let out = work.file("sync-report.json")
            defer { FileIO.remove(out) }
            let sync = try ProcessRelay.spawn(cloudsync, arguments(home: home) + ["store", "sync", "--json"], stdoutPath: out,
                                              work: work)
            guard sync.status == 0 else { throw BenchError("`cloudsync store sync` exited with status \(sync.status)") }
            let report = try JSONValue.parse(bytes: try FileIO.read(out))
            result.saved = Int(report["saved"]?.int64Value ?? -1)
            result.pulledChanges = Int(report["pulledChanges"]?.int64Value ?? -1)
            guard result.saved == rows, report["pending"]?.int64Value == 0 else {
                throw BenchError("`cloudsync store sync` saved \(result.saved) of \(rows) records, \(report["pending"]?.int64Value ?? -1) pending")
            }
            if run == options.runs, rows == sizes.last { result.query = try measureQuery(home: home, records: rows) }
            try removeTree(home)
            result.sync.append(sync.seconds)
            result.syncCPU.append(sync.cpuSeconds)
            result.peakKiB.append(sync.maxRSSKiB)
            Log.line("  run \(run) sync:    \(Log.fixed(sync.seconds, 3)) s  \(Int(Double(rows) / sync.seconds)) records/s (CPU \(Log.fixed(sync.cpuSeconds, 3)) s, peak RSS \(Log.fixed(Double(sync.maxRSSKiB) / 1024)) MB)")
            let raw = try baseline.timedRun("sync-raw.sqlite", in: work)
            result.raw.append(raw.seconds)
            result.rawCPU.append(raw.cpuSeconds)
            Log.line("  run \(run) sqlite3: \(Log.fixed(raw.seconds, 3)) s  \(Int(Double(rows) / raw.seconds)) rows/s")
        }
        Log.line("  median ratio \(Log.fixed(result.ratio, 3)) (target >= \(StoreSyncProcessBenchmark.targetRatio)), CPU-time ratio \(Log.fixed(result.cpuRatio, 3)), peak RSS \(Log.fixed(result.peakMiB)) MB (target < \(Int(StoreSyncProcessBenchmark.targetMiB)))")
        return result
    }

    /// Times `store query` with a filter on the synced device in `home`.
    func measureQuery(home: String, records: Int) throws -> Query {
        let target = records / 2 + 7
        var query = Query(records: records, filter: "count == \(target)", matches: 0)
        let device = DeviceStore.defaultPath(home: home, account: BenchSetup.accountName, device: BenchSetup.deviceID)
        let sql = work.file("query.sql")
        defer { FileIO.remove(sql) }
        try FileIO.write("SELECT count(*) FROM local_records WHERE record_type='\(BenchSetup.recordType)' AND json_extract(fields, '$.count.value') = \(target);\n", to: sql)
        let out = work.file("query.json")
        defer { FileIO.remove(out) }
        for _ in 0..<StoreSyncProcessBenchmark.queryRuns {
            let run = try Spawn.run(cloudsync, arguments(home: home) + ["store", "query", BenchSetup.recordType, "--where", query.filter, "--json"],
                                    stdoutPath: out)
            guard run.status == 0 else { throw BenchError("`cloudsync store query` exited with status \(run.status)") }
            query.matches = try JSONValue.parse(bytes: try FileIO.read(out))["records"]?.arrayValue?.count ?? -1
            query.process.append(run.seconds)
            let raw = try Spawn.run(options.sqlite3, [device], stdinPath: sql, stdoutPath: "/dev/null")
            guard raw.status == 0 else { throw BenchError("sqlite3 exited with status \(raw.status)") }
            query.sqlite3.append(raw.seconds)
        }
        guard query.matches == 1 else { throw BenchError("`store query --where '\(query.filter)'` found \(query.matches) records, expected 1") }
        Log.line("  store query over \(records) records: \(Log.fixed(query.process.median * 1000, 1)) ms (target < \(Int(StoreSyncProcessBenchmark.queryTargetSeconds * 1000)) ms), sqlite3 \(Log.fixed(query.sqlite3.median * 1000, 1)) ms")
        return query
    }

    func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o700) == 0 else { throw BenchError("cannot create \(path): \(FileIO.errorText())") }
    }

    /// `cp -a`: the home holds folders (devices/ACCOUNT/), which the flat work folder does not.
    func copyTree(_ source: String, to destination: String) throws {
        let outcome = try Spawn.run("/bin/cp", ["-a", source, destination])
        guard outcome.status == 0 else { throw BenchError("cp -a \(source) \(destination) failed") }
    }

    func removeTree(_ path: String) throws {
        let outcome = try Spawn.run("/bin/rm", ["-rf", path])
        guard outcome.status == 0 else { throw BenchError("rm -rf \(path) failed") }
    }
}
