import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice

/// (c) The fetch of ONE change when the device is up to date and the zone holds a small and a
/// large number of records: save one new record (not timed), then time the fetch that brings
/// it. Two variants alternate: `warm` keeps the cloud and device open between repetitions (a
/// long-running sync process); `reopened` opens both files afresh for each fetch, as one
/// `cloudsync` invocation does. The headline ratio is t(large)/t(small) of the warm medians.
struct IncrementalBenchmark {
    static let targetRatio = 1.5

    let options: BenchOptions
    let work: WorkDirectory

    /// The measurements of one zone size.
    struct Case {
        var zoneRecords: Int
        var warm = Samples()
        var reopened = Samples()

        func json() -> JSONValue {
            .object([("zone_records", JSONFigures.int(zoneRecords)),
                     ("warm_ms", JSONFigures.millis(warm)), ("reopened_ms", JSONFigures.millis(reopened))])
        }
    }

    /// Both zone sizes (the large one is absent with --skip-1m).
    struct Result {
        var small: Case
        var large: Case?

        var ratio: Double? { large.map { $0.warm.median / small.warm.median } }
        var reopenedRatio: Double? { large.map { $0.reopened.median / small.reopened.median } }

        func json() -> JSONValue {
            let largeMillis: Double? = large.map { $0.warm.median * 1000 }
            let largeReopened: Double? = large.map { $0.reopened.median * 1000 }
            let pairs: [(String, JSONValue)] = [
                ("small_zone_records", JSONFigures.int(small.zoneRecords)),
                ("large_zone_records", JSONFigures.optionalInt(large?.zoneRecords)),
                ("repetitions", JSONFigures.int(small.warm.count)),
                ("small_ms", JSONFigures.number(small.warm.median * 1000)),
                ("large_ms", JSONFigures.optional(largeMillis)),
                ("ratio", JSONFigures.optional(ratio)),
                ("target", .double(IncrementalBenchmark.targetRatio)),
                ("met", JSONFigures.met(ratio.map { $0 <= IncrementalBenchmark.targetRatio })),
                ("reopened_small_ms", JSONFigures.number(small.reopened.median * 1000)),
                ("reopened_large_ms", JSONFigures.optional(largeReopened)),
                ("reopened_ratio", JSONFigures.optional(reopenedRatio)),
                ("timed", .string(IncrementalBenchmark.timedDescription)),
                ("small", small.json()),
                ("large", large?.json() ?? .null),
            ]
            return .object(pairs)
        }
    }

    static let timedDescription = """
        ChangeFetcher.fetch() (database changes + zone changes + apply) bringing one new record; \
        warm: files kept open; reopened: SQLiteCloud + account lookup + DeviceStore opened inside the timed part
        """

    /// Builds the small zone and its device here; takes the large cloud and its fully fetched
    /// device from the large-fetch benchmark.
    func run(large: LargeFetchBenchmark.Result?) throws -> Result {
        let count = options.smallZone
        Log.line("(c) incremental fetch of one change: zone of \(count) records")
        let cloudPath = work.file("small-cloud.sqlite")
        let devicePath = work.file("small-device.sqlite")
        _ = try CloudFiller.fill(cloudPath, count: count, label: "small zone")
        let handle = try CloudFiller.open(cloudPath)
        let fetched = try fetcher(handle, DeviceStore(path: devicePath)).fetch()
        guard fetched.changedRecords == count else { throw BenchError("fetched \(fetched.changedRecords), expected \(count)") }
        var result = Result(small: try measure(cloudPath: cloudPath, devicePath: devicePath, zoneRecords: count))
        if let large {
            Log.line("(c) incremental fetch of one change: zone of \(large.records) records")
            result.large = try measure(cloudPath: large.cloudPath, devicePath: large.devicePath, zoneRecords: large.records)
        }
        if let ratio = result.ratio {
            Log.line("  t(large)/t(small) = \(Log.fixed(ratio, 2)) warm (target <= \(IncrementalBenchmark.targetRatio)), \(Log.fixed(result.reopenedRatio ?? 0, 2)) reopened")
        }
        return result
    }

    func fetcher(_ handle: CloudFiller.Handle, _ store: DeviceStore) -> ChangeFetcher {
        var fetcher = ChangeFetcher(cloud: handle.cloud, store: store, request: handle.request)
        if let size = options.pageSize { fetcher.pageSize = size }
        return fetcher
    }

    /// Alternates warm and reopened one-change fetches on a device that is up to date.
    func measure(cloudPath: String, devicePath: String, zoneRecords: Int) throws -> Case {
        var result = Case(zoneRecords: zoneRecords)
        let handle = try CloudFiller.open(cloudPath)
        let warm = fetcher(handle, try DeviceStore(path: devicePath))
        let initial = try warm.fetch()
        guard initial.changedRecords == 0 else { throw BenchError("the device was not up to date (\(initial.changedRecords) changes)") }
        var next = 0
        func saveOne() throws {
            try CloudFiller.save([SampleRecords.record(next, prefix: "inc-", zone: handle.zoneID)], handle)
            next += 1
        }
        func check(_ summary: FetchSummary) throws {
            guard summary.changedRecords == 1 else { throw BenchError("expected one change, fetched \(summary.changedRecords)") }
        }
        for _ in 0..<options.incrementalRuns {
            try saveOne()
            let (summary, seconds) = try MonotonicClock.measure { try warm.fetch() }
            try check(summary)
            result.warm.append(seconds)

            try saveOne()
            let start = MonotonicClock.now()
            let cloud = try SQLiteCloud(path: cloudPath)
            let request = try BenchSetup.request(cloud)
            var reopened = ChangeFetcher(cloud: cloud, store: try DeviceStore(path: devicePath), request: request)
            if let size = options.pageSize { reopened.pageSize = size }
            let fresh = try reopened.fetch()
            result.reopened.append(MonotonicClock.now() - start)
            try check(fresh)
        }
        Log.line("  \(zoneRecords) records: warm median \(Log.fixed(result.warm.median * 1000, 2)) ms (min \(Log.fixed(result.warm.min * 1000, 2)), max \(Log.fixed(result.warm.max * 1000, 2))), reopened median \(Log.fixed(result.reopened.median * 1000, 2)) ms")
        return result
    }
}
