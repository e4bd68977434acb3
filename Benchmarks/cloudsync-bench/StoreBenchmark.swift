import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice

/// (d) The local store's synchronizer (`store sync` without the CLI): `Synchronizer.push` of
/// `rows` pending records into a fresh embedded cloud against the sqlite3 shell inserting the
/// same rows (the script of (a), runs interleaved as in (a)); the peak RSS of the same push run
/// alone in a child process; `Synchronizer.pull` of those records into a fresh second device
/// (cache and local store); one whole `sync()` for information.
struct StoreBenchmark {
    /// Push rate / the sqlite3 insert's rate of the same rows, same run (issue 16).
    static let targetRatio = 0.4
    static let targetMiB = 150.0
    /// Pull rate / the sqlite3 insert's rate of the same rows, same run (issue 16).
    static let targetPullRatio = 0.5

    let options: BenchOptions
    let work: WorkDirectory

    /// The measurements.
    struct Result {
        var rows: Int
        var batchSize: Int
        var pageSize: Int
        /// Writing the device with `rows` pending records (not part of any timing).
        var buildSeconds = 0.0
        var deviceFileBytes: Int64 = 0
        /// Synchronizer.push alone, in this process.
        var push = Samples()
        /// The sqlite3 process inserting the same rows, interleaved with the pushes.
        var raw = Samples()
        /// CPU times of the same (this process during the push; the sqlite3 process).
        var pushCPU = Samples()
        var rawCPU = Samples()
        var pushChild: ChildMeasurement?
        /// Synchronizer.pull alone into a fresh device, in this process.
        var pull = Samples()
        var pullCPU = Samples()
        var pullChild: ChildMeasurement?
        var sync: StoreWorkload.Timed?
        /// (a)'s rate for the same records saved straight into the cloud.
        var cloudSaveRate: Double

        var pushRate: Double { Double(rows) / push.median }
        var rawRate: Double { Double(rows) / raw.median }
        var ratio: Double { pushRate / rawRate }
        /// The same ratio from CPU times: what the ratio would be on an idle machine.
        var cpuRatio: Double { rawCPU.median / pushCPU.median }
        var peakMiB: Double { pushChild?.peakMiB ?? .nan }
        var pullRate: Double { Double(rows) / pull.median }
        /// The pull's rate / the sqlite3 insert's (the runs interleaved with the pushes).
        var pullRatio: Double { pullRate / rawRate }
        var ratioMet: Bool { ratio >= StoreBenchmark.targetRatio }
        var peakMet: Bool { peakMiB < StoreBenchmark.targetMiB }
        var pullMet: Bool { pullRatio >= StoreBenchmark.targetPullRatio }

        func pushJSON() -> JSONValue {
            .object([
                ("records", JSONFigures.int(rows)),
                ("batch_size", JSONFigures.int(batchSize)),
                ("runs", JSONFigures.int(push.count)),
                ("ours_records_per_s", JSONFigures.rate(pushRate)),
                ("sqlite3_rows_per_s", JSONFigures.rate(rawRate)),
                ("ratio", JSONFigures.number(ratio)),
                ("target", .double(StoreBenchmark.targetRatio)),
                ("met", .bool(ratioMet)),
                ("push_seconds", JSONFigures.seconds(push)),
                ("sqlite3_seconds", JSONFigures.seconds(raw)),
                ("noise_relative_spread", .object([("ours", JSONFigures.number(push.relativeSpread)),
                                                   ("sqlite3", JSONFigures.number(raw.relativeSpread))])),
                ("cpu", .object([("push_seconds", JSONFigures.seconds(pushCPU)), ("sqlite3_seconds", JSONFigures.seconds(rawCPU)),
                                 ("ratio", JSONFigures.number(cpuRatio)),
                                 ("note", .string("user+system CPU of this process during the push and of the sqlite3 process; wall/CPU near 1 means the machine was not contended"))])),
                ("timed", .string("Synchronizer.push(&report) alone: \(rows) pending records of a device local store (one history transaction each) into a fresh embedded cloud (zone created by the push), GenericStoreAdapter, files opened beforehand")),
                ("baseline", .string("the sqlite3 script of save.baseline (the same \(rows) rows), run again here between the pushes")),
                ("cloud_save_rows_per_s", JSONFigures.rate(cloudSaveRate)),
                ("push_vs_cloud_save", JSONFigures.number(pushRate / cloudSaveRate)),
                ("setup", .object([
                    ("what", .string("DeviceStore.put per record (own history transaction, pending), \(StoreWorkload.putsPerTransaction) puts per device transaction; built once, file copied for each run")),
                    ("seconds", JSONFigures.number(buildSeconds, 2)),
                    ("puts_per_s", JSONFigures.rate(Double(rows) / buildSeconds)),
                    ("device_file_mb", JSONFigures.number(Double(deviceFileBytes) / 1_048_576, 1)),
                ])),
            ])
        }

        func peakJSON() -> JSONValue {
            .object([
                ("records", JSONFigures.int(rows)),
                ("peak_rss_mb", JSONFigures.number(peakMiB, 1)),
                ("target_mb", .double(StoreBenchmark.targetMiB)),
                ("met", .bool(peakMet)),
                ("measured", .string("ru_maxrss from wait4() of a `cloudsync-bench child-push-run` process that only opens the cloud and device files and pushes (started through the relay, as fetch_1m)")),
                ("child", pushChild?.json() ?? .null),
            ])
        }

        func pullJSON() -> JSONValue {
            .object([
                ("records", JSONFigures.int(rows)),
                ("page_size", JSONFigures.int(pageSize)),
                ("runs", JSONFigures.int(pull.count)),
                ("records_per_s", JSONFigures.rate(pullRate)),
                ("sqlite3_rows_per_s", JSONFigures.rate(rawRate)),
                ("ratio", JSONFigures.number(pullRatio)),
                ("target", .double(StoreBenchmark.targetPullRatio)),
                ("met", .bool(pullMet)),
                ("baseline", .string("the sqlite3 insert of the same rows run between the pushes (store_push), same run")),
                ("seconds", JSONFigures.seconds(pull)),
                ("noise_relative_spread", JSONFigures.number(pull.relativeSpread)),
                ("cpu_seconds", JSONFigures.seconds(pullCPU)),
                ("cpu_records_per_s", JSONFigures.rate(Double(rows) / pullCPU.median)),
                ("timed", .string("Synchronizer.pull(&report) alone into a fresh device store (a second device): fetch, cache and apply to the local store with history; files opened beforehand")),
                ("peak_rss_mb", pullChild.map { JSONFigures.number($0.peakMiB, 1) } ?? .null),
                ("child", pullChild?.json() ?? .null),
            ])
        }

        func syncJSON() -> JSONValue {
            guard let sync else { return .null }
            return .object([
                ("records", JSONFigures.int(rows)),
                ("seconds", JSONFigures.number(sync.seconds, 4)),
                ("cpu_seconds", JSONFigures.number(sync.cpuSeconds, 4)),
                ("saved", JSONFigures.int(sync.report.savedRecords)),
                ("pulled", JSONFigures.int(sync.report.pulledChanges)),
                ("pulled_back_own", JSONFigures.int(sync.report.ownPushedRecords)),
                ("records_per_s", JSONFigures.rate(Double(rows) / sync.seconds)),
                ("timed", .string("Synchronizer.sync() alone, once, for information: push of every pending record into a fresh cloud, then the pull that gets those same records back (skipped: their change tags are the pushed ones)")),
            ])
        }
    }

    func run(baseline: SQLiteBaseline, cloudSaveRate: Double) throws -> Result {
        let rows = options.storeRows
        guard baseline.rows == rows else { throw BenchError("the sqlite3 script inserts \(baseline.rows) rows, not \(rows)") }
        var result = Result(rows: rows, batchSize: SyncOptions().batchSize, pageSize: options.pageSize ?? SyncOptions().pageSize,
                            cloudSaveRate: cloudSaveRate)
        Log.line("(d) store sync: writing a device with \(rows) pending records (not timed)")
        let template = "store-pending-device.sqlite"
        work.removeDatabase(template)
        result.buildSeconds = try MonotonicClock.measure { try StoreWorkload.buildPendingDevice(work.file(template), rows: rows) }.seconds
        result.deviceFileBytes = FileIO.size(work.file(template))
        Log.line("  \(Log.fixed(result.buildSeconds, 2)) s (\(Int(Double(rows) / result.buildSeconds)) puts/s), device file \(Log.fixed(Double(result.deviceFileBytes) / 1_048_576)) MB")
        defer { work.removeDatabase(template) }

        for run in 1...options.runs {
            let push = try pushIntoFreshCloud(from: template, cloud: "store-push-cloud.sqlite", device: "store-push-device.sqlite")
            result.push.append(push.seconds)
            result.pushCPU.append(push.cpuSeconds)
            Log.line("  run \(run) push:    \(Log.fixed(push.seconds, 3)) s  \(Int(Double(rows) / push.seconds)) records/s (CPU \(Log.fixed(push.cpuSeconds, 3)) s)")
            let raw = try baseline.timedRun("store-raw.sqlite", in: work)
            result.raw.append(raw.seconds)
            result.rawCPU.append(raw.cpuSeconds)
            Log.line("  run \(run) sqlite3: \(Log.fixed(raw.seconds, 3)) s  \(Int(Double(rows) / raw.seconds)) rows/s (CPU \(Log.fixed(raw.cpuSeconds, 3)) s)")
        }
        Log.line("  median: push \(Int(result.pushRate)) records/s, sqlite3 \(Int(result.rawRate)) rows/s, ratio \(Log.fixed(result.ratio, 3)) (target >= \(StoreBenchmark.targetRatio)); CPU-time ratio \(Log.fixed(result.cpuRatio, 3))")

        // The push alone in a child, for its peak RSS; its cloud is what the second device pulls.
        let cloud = "store-cloud.sqlite"
        work.removeDatabase(cloud)
        defer { work.removeDatabase(cloud) }
        result.pushChild = try child(.push, cloud: cloud, device: "store-child-device.sqlite", copying: template,
                                     size: options.batchSize)
        Log.line("  child push: \(Log.fixed(result.pushChild!.seconds, 3)) s, peak RSS \(Log.fixed(result.peakMiB)) MB (target < \(Int(StoreBenchmark.targetMiB)) MB)")

        Log.line("(d) store pull: \(rows) records into a fresh device")
        for run in 1...options.runs {
            let pull = try pullIntoFreshDevice(cloud: cloud, device: "store-pull-device.sqlite")
            result.pull.append(pull.seconds)
            result.pullCPU.append(pull.cpuSeconds)
            Log.line("  run \(run): \(Log.fixed(pull.seconds, 3)) s  \(Int(Double(rows) / pull.seconds)) records/s (CPU \(Log.fixed(pull.cpuSeconds, 3)) s)")
        }
        result.pullChild = try child(.pull, cloud: cloud, device: "store-pull-device.sqlite", copying: nil,
                                     size: options.pageSize)
        Log.line("  child pull: \(Log.fixed(result.pullChild!.seconds, 3)) s, peak RSS \(Log.fixed(result.pullChild!.peakMiB)) MB")
        Log.line("  median: \(Int(result.pullRate)) records/s, ratio \(Log.fixed(result.pullRatio, 3)) to sqlite3 (target >= \(StoreBenchmark.targetPullRatio))")

        result.sync = try syncIntoFreshCloud(from: template, cloud: "store-sync-cloud.sqlite", device: "store-sync-device.sqlite")
        Log.line("(d) store sync() once: \(Log.fixed(result.sync!.seconds, 3)) s (push \(result.sync!.report.savedRecords), pull \(result.sync!.report.pulledChanges), own pushed versions skipped \(result.sync!.report.ownPushedRecords))")
        return result
    }

    /// A fresh copy of the pending device `template` as `name` (or a fresh empty name without one).
    func freshDevice(_ name: String, from template: String?) throws -> String {
        work.removeDatabase(name)
        if let template { try FileIO.copy(work.file(template), to: work.file(name)) }
        return work.file(name)
    }

    /// Opens `cloud` and a copy of `template` as `device`, runs `body` on the synchronizer of
    /// `deviceID`, then closes and removes both (the cloud only when `keepCloud` is false).
    func withSynchronizer(cloud: String, device: String, copying template: String?, deviceID: String,
                          keepCloud: Bool = false, _ body: (Synchronizer) throws -> StoreWorkload.Timed) throws -> StoreWorkload.Timed {
        if !keepCloud { work.removeDatabase(cloud) }
        let path = try freshDevice(device, from: template)
        defer {
            work.removeDatabase(device)
            if !keepCloud { work.removeDatabase(cloud) }
        }
        let synchronizer = try StoreWorkload.synchronizer(try SQLiteCloud(path: work.file(cloud)), try DeviceStore(path: path),
                                                          device: deviceID, batchSize: options.batchSize,
                                                          pageSize: options.pageSize)
        return try body(synchronizer)
    }

    func pushIntoFreshCloud(from template: String, cloud: String, device: String) throws -> StoreWorkload.Timed {
        let push = try withSynchronizer(cloud: cloud, device: device, copying: template, deviceID: StoreWorkload.pusher,
                                        StoreWorkload.push)
        try expect(push.report.savedRecords, "pushed")
        return push
    }

    func pullIntoFreshDevice(cloud: String, device: String) throws -> StoreWorkload.Timed {
        let pull = try withSynchronizer(cloud: cloud, device: device, copying: nil, deviceID: StoreWorkload.puller,
                                        keepCloud: true, StoreWorkload.pull)
        try expect(pull.report.pulledChanges, "pulled")
        return pull
    }

    func syncIntoFreshCloud(from template: String, cloud: String, device: String) throws -> StoreWorkload.Timed {
        let sync = try withSynchronizer(cloud: cloud, device: device, copying: template, deviceID: StoreWorkload.pusher,
                                        StoreWorkload.sync)
        try expect(sync.report.savedRecords, "sync pushed")
        // The pull gets every pushed record back and applies none (they are the pushed versions).
        try expect(sync.report.ownPushedRecords, "sync got back as its own")
        guard sync.report.pulledChanges == 0 else { throw BenchError("sync applied \(sync.report.pulledChanges) of its own records again") }
        return sync
    }

    /// Runs `operation` in a child on `cloud` and a fresh device (a copy of `template`, if any),
    /// then removes the device.
    func child(_ operation: ChildOperation, cloud: String, device: String, copying template: String?,
               size: Int?) throws -> ChildMeasurement {
        let path = try freshDevice(device, from: template)
        defer { work.removeDatabase(device) }
        return try ChildMeasurement.run(operation, cloud: work.file(cloud), device: path, size: size,
                                        expected: options.storeRows, work: work)
    }

    func expect(_ count: Int, _ what: String) throws {
        guard count == options.storeRows else { throw BenchError("\(what) \(count) records, expected \(options.storeRows)") }
    }
}
