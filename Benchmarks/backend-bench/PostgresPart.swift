import BenchSupport
import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice
import CloudSyncPostgresCloud
#if canImport(Glibc)
import Glibc
#endif

/// Issue 11: PostgresCloud against the embedded SQLite cloud in the same run. Save N records in
/// calls of 400 into a fresh cloud (fresh file / fresh PostgreSQL schema), fetch them into a fresh
/// device (ChangeFetcher in this process), the same fetch as `cloudsync fetch-changes` run as a
/// user would (wall time and the child's peak RSS), and the one-change incremental fetch on a
/// small and a large zone.
struct PostgresPart {
    let options: BackendOptions
    let url: String
    let work: String
    let cloudsync: String

    func schemaURL(_ name: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "schema=bb\(getpid())_\(name)"
    }

    func run() throws -> JSONValue {
        let rows = options.postgresRows
        log("[postgres] save \(rows) records, fetch \(rows) into a fresh device; SQLite first, then PostgreSQL")
        let placeholder = ZoneID(zoneName: BenchCloud.zoneName, ownerRecordName: "placeholder")
        let batches = BenchCloud.batches(0..<rows, zone: placeholder)
        var sqlitePath = ""
        let sqliteSave = try BenchCloud.median(options.runs) { run in
            sqlitePath = work + "/pg-baseline-\(run).sqlite"
            let cloud = try SQLiteCloud(path: sqlitePath)
            return try BenchCloud.fill(cloud, try BenchCloud.request(cloud), count: rows, prebuilt: batches, label: "sqlite")
        }
        let sqliteFetch = try BenchCloud.median(options.runs) { run in
            let cloud = try SQLiteCloud(path: sqlitePath)
            return try BenchCloud.fetchFresh(cloud, try BenchCloud.request(cloud), devicePath: work + "/pg-baseline-device-\(run).sqlite", expect: rows)
        }
        log("  sqlite: save \(fixed(sqliteSave, digits: 3)) s, fetch \(fixed(sqliteFetch, digits: 3)) s")
        var pgURL = ""
        let pgSave = try BenchCloud.median(options.runs) { run in
            pgURL = schemaURL("save\(run)")
            let cloud = try PostgresCloud(url: pgURL)
            return try BenchCloud.fill(cloud, try BenchCloud.request(cloud), count: rows, prebuilt: batches, label: "postgres")
        }
        let pgFetch = try BenchCloud.median(options.runs) { run in
            let cloud = try PostgresCloud(url: pgURL)
            return try BenchCloud.fetchFresh(cloud, try BenchCloud.request(cloud), devicePath: work + "/pg-device-\(run).sqlite", expect: rows)
        }
        let benchPeak = ProcessStatus.selfKiB("VmHWM")
        log("  postgres: save \(fixed(pgSave, digits: 3)) s, fetch \(fixed(pgFetch, digits: 3)) s (this process's peak RSS so far \(benchPeak / 1024) MiB)")

        log("  `cloudsync fetch-changes` of \(rows) records as a user runs it, SQLite then PostgreSQL")
        let cliSQLite = try cli(cloud: "sqlite://" + sqlitePath, name: "cli-sqlite")
        let cliPostgres = try cli(cloud: pgURL, name: "cli-postgres")
        log("  cli: sqlite \(fixed(cliSQLite.seconds, digits: 3)) s \(cliSQLite.peakKiB / 1024) MiB, postgres \(fixed(cliPostgres.seconds, digits: 3)) s \(cliPostgres.peakKiB / 1024) MiB")

        let small = try incremental(zone: options.smallZone, name: "small")
        let large = options.skipMillion ? nil : try incremental(zone: options.largeZone, name: "large")
        let incrementalRatio = large.map { $0 / small }

        let saveRatio = sqliteSave / pgSave
        let fetchRatio = sqliteFetch / pgFetch
        let peakMiB = Double(cliPostgres.peakKiB) / 1024
        return .object([
            ("url", .string(PostgresPart.redacted(url))),
            ("records", .int(Int64(rows))),
            ("runs", .int(Int64(options.runs))),
            ("save", .object([("sqlite_seconds", .double(round3(sqliteSave))), ("postgres_seconds", .double(round3(pgSave))),
                              ("postgres_records_per_s", .double((Double(rows) / pgSave).rounded())),
                              ("ratio", .double(round3(saveRatio))), ("target", .double(0.5)), ("met", .bool(saveRatio >= 0.5)),
                              ("timed", .string("fresh cloud + zone + \(rows / 400) modifyRecords calls of 400, in this process"))])),
            ("fetch", .object([("sqlite_seconds", .double(round3(sqliteFetch))), ("postgres_seconds", .double(round3(pgFetch))),
                               ("postgres_records_per_s", .double((Double(rows) / pgFetch).rounded())),
                               ("ratio", .double(round3(fetchRatio))), ("target", .double(0.5)), ("met", .bool(fetchRatio >= 0.5)),
                               ("timed", .string("fresh DeviceStore + ChangeFetcher.fetch() of the whole database, in this process"))])),
            ("cli_fetch_changes", .object([("sqlite_seconds", .double(round3(cliSQLite.seconds))),
                                           ("postgres_seconds", .double(round3(cliPostgres.seconds))),
                                           ("ratio", .double(round3(cliSQLite.seconds / cliPostgres.seconds))),
                                           ("sqlite_peak_rss_mb", .double(round3(Double(cliSQLite.peakKiB) / 1024))),
                                           ("postgres_peak_rss_mb", .double(round3(peakMiB)))])),
            ("peak_rss", .object([("mb", .double(round3(peakMiB))), ("target_mb", .double(150)), ("met", .bool(peakMiB < 150)),
                                  ("measured", .string("ru_maxrss of `cloudsync --cloud postgres://… fetch-changes` of \(rows) records")),
                                  ("bench_process_mb", .double(round3(Double(benchPeak) / 1024)))])),
            ("incremental", .object([("small_zone_records", .int(Int64(options.smallZone))), ("small_ms", .double(round3(small * 1000))),
                                     ("large_zone_records", large == nil ? .null : .int(Int64(options.largeZone))),
                                     ("large_ms", large.map { .double(round3($0 * 1000)) } ?? .null),
                                     ("ratio", incrementalRatio.map { .double(round3($0)) } ?? .null), ("target", .double(1.5)),
                                     ("met", incrementalRatio.map { .bool($0 <= 1.5) } ?? .null),
                                     ("timed", .string("median of \(options.incrementalRuns) warm ChangeFetcher.fetch() bringing one new record"))])),
        ])
    }

    func cli(cloud: String, name: String) throws -> TimedCommand {
        let home = work + "/" + name
        mkdir(home, 0o755)
        let environment = ["CLOUDSYNC_HOME": home, "CLOUDSYNC_ACCOUNT": "bench", "CLOUDSYNC_CONTAINER": BenchCloud.container,
                           "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state", "HOME": home,
                           "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let run = try TimedCommand(cloudsync, ["--cloud", cloud, "--device", name, "fetch-changes", "--json"],
                                   environment: environment, stdoutPath: home + ".ndjson", stderrPath: home + ".log")
        try expectChanged(home + ".ndjson", options.postgresRows)
        return run
    }

    /// Median seconds of a warm one-change fetch on a PostgreSQL zone of `zone` records.
    func incremental(zone count: Int, name: String) throws -> Double {
        log("  incremental: fill a zone of \(count) records and fetch it into a device (not timed)")
        let cloud = try PostgresCloud(url: schemaURL("inc_" + name))
        let request = try BenchCloud.request(cloud)
        try BenchCloud.fill(cloud, request, count: count, label: "zone of \(count)")
        let fetcher = ChangeFetcher(cloud: cloud, store: try DeviceStore(path: work + "/inc-\(name).sqlite"), request: request)
        guard try fetcher.fetch().changedRecords == count else { throw BenchFailure("initial fetch incomplete") }
        var samples: [Double] = []
        for i in 0..<options.incrementalRuns {
            try BenchCloud.save([BenchCloud.record(i, prefix: "inc-", zone: request.zoneID(BenchCloud.zoneName))], cloud, request)
            let start = Clock.now()
            let summary = try fetcher.fetch()
            samples.append(Clock.now() - start)
            guard summary.changedRecords == 1 else { throw BenchFailure("expected one change, fetched \(summary.changedRecords)") }
        }
        let median = LatencyStats(samples).quantile(0.5)
        log("  incremental \(count): median \(fixed(median * 1000)) ms")
        return median
    }

    /// `url` without its password.
    static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let head = url[..<at]
        guard let colon = head.lastIndex(of: ":"), head[..<colon].hasSuffix("/") == false,
              head[head.index(after: colon)...].contains("/") == false else { return url }
        return String(url[...colon]) + "***" + String(url[at...])
    }
}
