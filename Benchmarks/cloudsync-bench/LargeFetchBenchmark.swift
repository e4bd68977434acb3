import CloudSyncCore

/// (b, large) Builds the large zone once (1,000,000 records in 400-record calls) and fetches it
/// into a fresh device in a child process, whose peak RSS (wait4's ru_maxrss) must stay under
/// the target. The cloud and the device of the last run are kept for the incremental case.
struct LargeFetchBenchmark {
    static let targetMiB = 150.0

    let options: BenchOptions
    let work: WorkDirectory

    /// The measurements.
    struct Result {
        var records: Int
        var buildSeconds = 0.0
        var runs: [ChildMeasurement] = []
        var cloudPath = ""
        var devicePath = ""

        var peakMiB: Double { runs.map(\.peakMiB).max() ?? 0 }
        var fetchSeconds: Samples { Samples(runs.map(\.seconds)) }

        func json() -> JSONValue {
            .object([
                ("records", JSONFigures.int(records)),
                ("peak_rss_mb", JSONFigures.number(peakMiB, 1)),
                ("target_mb", .double(LargeFetchBenchmark.targetMiB)),
                ("met", .bool(peakMiB < LargeFetchBenchmark.targetMiB)),
                ("measured", .string(LargeFetchBenchmark.measuredDescription)),
                ("runs", JSONFigures.int(runs.count)),
                ("records_per_s", JSONFigures.rate(Double(records) / fetchSeconds.median)),
                ("fetch_seconds", JSONFigures.seconds(fetchSeconds)),
                ("children", .array(runs.map { $0.json() })),
                ("build_seconds", JSONFigures.number(buildSeconds, 2)),
                ("build_rows_per_s", JSONFigures.rate(Double(records) / buildSeconds)),
                ("cloud_file_mb", JSONFigures.number(Double(FileIO.size(cloudPath)) / 1_048_576, 1)),
                ("device_file_mb", JSONFigures.number(Double(FileIO.size(devicePath)) / 1_048_576, 1)),
            ])
        }
    }

    static let measuredDescription = """
        ru_maxrss from wait4() of a `cloudsync-bench child-fetch-run` process that only opens the files and \
        fetches (started through a small relay process so that Linux does not carry the bench's own high-water \
        RSS into it); max over the runs. child_vm_hwm_mb is the same process's VmHWM, as a cross-check
        """

    func run() throws -> Result {
        var result = Result(records: options.largeZone)
        result.cloudPath = work.file("large-cloud.sqlite")
        result.devicePath = work.file("large-device.sqlite")
        Log.line("(b) large zone: building a cloud of \(result.records) records (400 per call)")
        result.buildSeconds = try CloudFiller.fill(result.cloudPath, count: result.records, label: "large zone")
        for run in 1...options.runs {
            work.removeDatabase("large-device.sqlite")
            let child = try ChildMeasurement.run(.fetch, cloud: result.cloudPath, device: result.devicePath,
                                                 size: options.pageSize, expected: result.records, work: work)
            result.runs.append(child)
            Log.line("  run \(run): fetch \(Log.fixed(child.seconds, 2)) s (\(Int(child.recordsPerSecond)) records/s), peak RSS \(Log.fixed(child.peakMiB)) MB (before fetch \(Log.fixed(Double(child.rssBeforeKiB) / 1024)) MB)")
        }
        Log.line("  peak RSS \(Log.fixed(result.peakMiB)) MB (target < \(Int(LargeFetchBenchmark.targetMiB)) MB)")
        return result
    }
}
