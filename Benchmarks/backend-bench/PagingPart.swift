import BenchSupport
import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28, figures 5 and 6: `record query --all` against `fetch-changes` of the same records
/// (keyset paging), embedded and through `serve`, as whole commands; and the bytes per record of
/// a changes read on the wire, with and without `Accept-Encoding: gzip`.
struct PagingPart {
    let options: BackendOptions
    let work: String
    let cloudsync: String

    var serve: ServePart { ServePart(options: options, work: work, cloudsync: cloudsync) }

    func run() throws -> JSONValue {
        let rows = options.pagingRows
        let cloudPath = work + "/paging.sqlite"
        let cloudURL = "sqlite://" + cloudPath
        log("[paging] fill a cloud with \(rows) records (not timed)")
        do {
            let embedded = try SQLiteCloud(path: cloudPath)
            try BenchCloud.fill(embedded, try BenchCloud.request(embedded), count: rows, label: "paging cloud")
        }
        let token = try serve.token("bench", cloud: cloudURL)
        let server = try LineProcess(executable: cloudsync, arguments: ["serve", "--listen", "127.0.0.1:0", "--cloud", cloudURL],
                                     environment: serve.environment(work + "/paging-server-home"), stderrPath: work + "/paging-serve.log")
        defer { _ = server.stop() }
        guard let first = server.readLine(timeout: 30), first.hasPrefix("listening on ") else {
            throw BenchFailure("serve did not start; see \(work)/paging-serve.log")
        }
        let base = String(first.dropFirst("listening on ".count))

        var figures: [(String, JSONValue)] = []
        for (label, cloud, token) in [("embedded", cloudURL, nil), ("serve", base, token as String?)] {
            var query: [Double] = [], changes: [Double] = []
            for run in 1...options.runs {
                // Alternated, each on a fresh device: fetch-changes, then the query (default page of 100).
                let home = work + "/paging-\(label)-\(run)"
                let fetch = try TimedCommand(cloudsync, ["--cloud", cloud, "--device", "fetch", "fetch-changes", "--json"],
                                             environment: serve.environment(home, token: token), stdoutPath: home + ".changes.ndjson",
                                             stderrPath: home + ".changes.log")
                try expectChanged(home + ".changes.ndjson", rows)
                let all = try TimedCommand(cloudsync, ["--cloud", cloud, "--device", "query", "--json", "record", "query", "Item",
                                                       "--zone", BenchCloud.zoneName, "--all"],
                                           environment: serve.environment(home, token: token), stdoutPath: home + ".query.json",
                                           stderrPath: home + ".query.log")
                let document = try JSONValue.parse(String(decoding: try readFile(home + ".query.json"), as: UTF8.self))
                guard document["records"]?.arrayValue?.count == rows else {
                    throw BenchFailure("record query --all returned \(document["records"]?.arrayValue?.count ?? -1) records, expected \(rows)")
                }
                changes.append(fetch.seconds)
                query.append(all.seconds)
            }
            let q = LatencyStats(query).quantile(0.5), c = LatencyStats(changes).quantile(0.5)
            log("  \(label): record query --all \(fixed(q, digits: 3)) s, fetch-changes \(fixed(c, digits: 3)) s, ratio \(fixed(q / c, digits: 2))")
            figures.append((label, .object([("query_all_seconds", .double(round3(q))), ("fetch_changes_seconds", .double(round3(c))),
                                            ("ratio", .double(round3(q / c))), ("target_max", .double(2)), ("met", .bool(q / c <= 2))])))
        }
        let wire = try bytesOnTheWire(base: base, token: token, rows: rows)
        return .object([
            ("records", .int(Int64(rows))),
            ("query_all_vs_fetch_changes", .object(figures + [("timed", .string(
                "whole `cloudsync --device NEW record query Item --zone Items --all --json` (pages of 100) vs `cloudsync --device NEW fetch-changes --json`, median of --runs alternated runs"))])),
            ("bytes_per_record", wire),
        ])
    }

    /// Body bytes of every page of a `records/changes` read of the zone (pages of 400), as curl
    /// receives them, plain and with `Accept-Encoding: gzip`.
    func bytesOnTheWire(base: String, token: String, rows: Int) throws -> JSONValue {
        let url = base + "/database/1/\(BenchCloud.container)/development/private/records/changes"
        var syncToken: String?
        var plain = 0, gzip = 0, records = 0, pages = 0
        func fetch(_ body: String, gzip: Bool, output: String) throws -> Int {
            var arguments = ["-sS", "-o", output, "-w", "%{size_download}", "-H", "Authorization: Bearer " + token,
                             "-H", "Content-Type: application/json", "--data-binary", body, url]
            if gzip { arguments = ["-H", "Accept-Encoding: gzip"] + arguments }
            let sizes = work + "/wire.size"
            _ = try TimedCommand("/usr/bin/curl", arguments, environment: ["PATH": "/usr/bin:/bin"], stdoutPath: sizes, stderrPath: sizes + ".log")
            guard let size = Int(String(decoding: try readFile(sizes), as: UTF8.self)) else { throw BenchFailure("curl printed no size") }
            return size
        }
        repeat {
            var members: [(String, JSONValue)] = [("zoneID", .object([("zoneName", .string(BenchCloud.zoneName))])), ("resultsLimit", .int(400))]
            if let syncToken { members.append(("syncToken", .string(syncToken))) }
            let body = JSONValue.object(members).serialized()
            plain += try fetch(body, gzip: false, output: work + "/wire.json")
            gzip += try fetch(body, gzip: true, output: "/dev/null")
            let reply = try JSONValue.parse(String(decoding: try readFile(work + "/wire.json"), as: UTF8.self))
            records += reply["records"]?.arrayValue?.count ?? 0
            syncToken = reply["syncToken"]?.stringValue
            pages += 1
            if reply["moreComing"]?.boolValue != true { break }
        } while pages < 10_000
        guard records == rows else { throw BenchFailure("the changes read returned \(records) records, expected \(rows)") }
        let plainPer = Double(plain) / Double(records), gzipPer = Double(gzip) / Double(records)
        log("  changes read on the wire: \(fixed(plainPer, digits: 1)) bytes/record plain, \(fixed(gzipPer, digits: 1)) with gzip (ratio \(fixed(gzipPer / plainPer, digits: 3)))")
        return .object([("records", .int(Int64(records))), ("pages", .int(Int64(pages))),
                        ("plain", .double(round3(plainPer))), ("gzip", .double(round3(gzipPer))),
                        ("ratio", .double(round3(gzipPer / plainPer))),
                        ("measured", .string("reply body bytes (curl size_download) of records/changes pages of 400, 3 fields per record"))])
    }
}
