import BenchSupport
import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice
import CloudSyncWebClient
#if canImport(Glibc)
import Glibc
#endif

/// Issue 12: a `cloudsync serve` child on 127.0.0.1 over an SQLite cloud, against the same
/// embedded cloud in the same run: save through HTTPCloud, fetch through HTTPCloud and as
/// `cloudsync --cloud http://… fetch-changes`, one-record modifies from N concurrent clients
/// (latency, server RSS), and commit → remote `subscribe listen` latency.
struct ServePart {
    let options: BackendOptions
    let work: String
    let cloudsync: String

    func environment(_ home: String, token: String? = nil, account: String = "bench") -> [String: String] {
        mkdir(home, 0o755)
        var environment = ["CLOUDSYNC_HOME": home, "CLOUDSYNC_ACCOUNT": account, "CLOUDSYNC_CONTAINER": BenchCloud.container,
                           "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state", "HOME": home,
                           "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        if let token { environment["CLOUDSYNC_TOKEN"] = token }
        return environment
    }

    func token(_ account: String, cloud: String) throws -> String {
        let out = work + "/\(account).token"
        _ = try TimedCommand(cloudsync, ["token", "create", "--account", account, "--cloud", cloud],
                             environment: environment(work + "/server-home"), stdoutPath: out, stderrPath: out + ".log")
        let text = try String(decoding: readAll(out), as: UTF8.self)
        guard let line = text.split(separator: "\n").first else { throw BenchFailure("token create printed nothing") }
        return String(line)
    }

    func readAll(_ path: String) throws -> [UInt8] {
        try readFile(path)
    }

    func client(_ base: String, _ token: String) -> HTTPCloud {
        HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: base, defaultContainer: BenchCloud.container, token: { _ in token }),
                  session: CurlSession())
    }

    func run() throws -> JSONValue {
        let saveRows = options.serveSaveRows
        let fetchRows = options.serveFetchRows
        let cloudPath = work + "/serve.sqlite"
        let cloudURL = "sqlite://" + cloudPath
        log("[serve] fill the served cloud with \(fetchRows) records (not timed)")
        do {
            let embedded = try SQLiteCloud(path: cloudPath)
            try BenchCloud.fill(embedded, try BenchCloud.request(embedded), count: fetchRows, label: "served cloud")
            _ = try embedded.account(named: "saver")
        }
        let placeholder = ZoneID(zoneName: BenchCloud.zoneName, ownerRecordName: "placeholder")
        let batches = BenchCloud.batches(0..<saveRows, zone: placeholder)
        let embeddedSave = try BenchCloud.median(options.runs) { run in
            let cloud = try SQLiteCloud(path: work + "/serve-baseline-\(run).sqlite")
            return try BenchCloud.fill(cloud, try BenchCloud.request(cloud), count: saveRows, prebuilt: batches, label: "embedded")
        }
        let embeddedFetch = try BenchCloud.median(options.runs) { run in
            let cloud = try SQLiteCloud(path: cloudPath)
            return try BenchCloud.fetchFresh(cloud, try BenchCloud.request(cloud), devicePath: work + "/serve-baseline-device-\(run).sqlite", expect: fetchRows)
        }
        log("  embedded: save \(saveRows) \(fixed(embeddedSave, digits: 3)) s, fetch \(fetchRows) \(fixed(embeddedFetch, digits: 3)) s")

        let benchToken = try token("bench", cloud: cloudURL)
        let saverToken = try token("saver", cloud: cloudURL)
        let server = try LineProcess(executable: cloudsync, arguments: ["serve", "--listen", "127.0.0.1:0", "--cloud", cloudURL],
                                     environment: environment(work + "/server-home"), stderrPath: work + "/serve.log")
        defer { _ = server.stop() }
        guard let first = server.readLine(timeout: 30), first.hasPrefix("listening on ") else { throw BenchFailure("serve did not start; see \(work)/serve.log") }
        let base = String(first.dropFirst("listening on ".count))
        log("  server at \(base) (pid \(server.pid))")

        let saver = client(base, saverToken)
        let httpSave = try BenchCloud.median(options.runs) { run in
            let request = try BenchCloud.request(saver, account: "saver")
            let zone = request.zoneID(BenchCloud.zoneName)
            let prefixed = run == 1 ? batches : BenchCloud.batches(0..<saveRows, prefix: "r\(run)-", zone: zone)
            return try BenchCloud.fill(saver, request, count: saveRows, prebuilt: prefixed, label: "http")
        }
        let reader = client(base, benchToken)
        let httpFetch = try BenchCloud.median(options.runs) { run in
            try BenchCloud.fetchFresh(reader, try BenchCloud.request(reader), devicePath: work + "/serve-device-\(run).sqlite", expect: fetchRows)
        }
        log("  http: save \(fixed(httpSave, digits: 3)) s, fetch \(fixed(httpFetch, digits: 3)) s")
        log("  `cloudsync fetch-changes` of \(fetchRows) records as a user runs it: embedded, then through serve")
        let cliEmbedded = try TimedCommand(cloudsync, ["--cloud", cloudURL, "--device", "cli-embedded", "fetch-changes", "--json"],
                                           environment: environment(work + "/cli-embedded"), stdoutPath: work + "/cli-embedded.ndjson",
                                           stderrPath: work + "/cli-embedded.log")
        try expectChanged(work + "/cli-embedded.ndjson", fetchRows)
        let cliRemote = try TimedCommand(cloudsync, ["--cloud", base, "--device", "cli-remote", "fetch-changes", "--json"],
                                         environment: environment(work + "/cli-remote", token: benchToken), stdoutPath: work + "/cli-remote.ndjson",
                                         stderrPath: work + "/cli-remote.log")
        try expectChanged(work + "/cli-remote.ndjson", fetchRows)
        log("  cli: embedded \(fixed(cliEmbedded.seconds, digits: 3)) s, serve \(fixed(cliRemote.seconds, digits: 3)) s (client peak \(cliRemote.peakKiB / 1024) MiB)")
        let rssBeforeLoad = server.statusKiB("VmRSS")

        log("  \(options.clients) concurrent clients x \(options.modifiesPerClient) one-record modifies")
        let clients = options.clients, modifies = options.modifiesPerClient
        let results = runOnThreads(clients) { index -> Result<[Double], BenchFailure> in
            let cloud = client(base, saverToken)
            do {
                let request = try BenchCloud.request(cloud, account: "saver", device: "client-\(index)")
                let zone = request.zoneID(BenchCloud.zoneName)
                var samples: [Double] = []
                for n in 0..<modifies {
                    let record = Record(recordID: RecordID(recordName: "load-\(index)", zoneID: zone), recordType: "Item",
                                        fields: ["count": .int64(Int64(n))])
                    let start = Clock.now()
                    let result = try cloud.modifyRecords(ModifyRequest(saves: [record], policy: .allKeys), in: request)
                    samples.append((Clock.now() - start) * 1000)
                    if let failure = result.partialFailure { return .failure(BenchFailure("modify failed: \(failure)")) }
                }
                return .success(samples)
            } catch {
                return .failure(BenchFailure("client \(index): \(error)"))
            }
        }
        var latencies: [Double] = []
        for result in results { latencies += try result.get() }
        let modify = LatencyStats(latencies)
        let serverPeak = Double(server.statusKiB("VmHWM")) / 1024
        log("  modify latency p50 \(fixed(modify.quantile(0.5))) ms, p99 \(fixed(modify.quantile(0.99))) ms; server peak RSS \(fixed(serverPeak)) MiB")

        let notify = try notifications(base: base, token: benchToken)
        let notifyMedian = notify.quantile(0.5)
        let saveRatio = embeddedSave / httpSave
        let fetchRatio = embeddedFetch / httpFetch
        return .object([
            ("server", .string("cloudsync serve --listen 127.0.0.1:0 --cloud sqlite://… (child process)")),
            ("save", .object([("records", .int(Int64(saveRows))), ("embedded_seconds", .double(round3(embeddedSave))),
                              ("serve_seconds", .double(round3(httpSave))), ("ratio", .double(round3(saveRatio))),
                              ("target", .double(0.3)), ("met", .bool(saveRatio >= 0.3)),
                              ("timed", .string("zone + \(saveRows / 400) modifyRecords calls of 400: SQLiteCloud vs HTTPCloud in this process"))])),
            ("fetch", .object([("records", .int(Int64(fetchRows))), ("embedded_seconds", .double(round3(embeddedFetch))),
                               ("serve_seconds", .double(round3(httpFetch))), ("ratio", .double(round3(fetchRatio))),
                               ("target", .double(0.5)), ("met", .bool(fetchRatio >= 0.5)),
                               ("timed", .string("fresh DeviceStore + ChangeFetcher.fetch(): SQLiteCloud vs HTTPCloud in this process"))])),
            ("cli_fetch_changes", .object([("records", .int(Int64(fetchRows))), ("embedded_seconds", .double(round3(cliEmbedded.seconds))),
                                           ("serve_seconds", .double(round3(cliRemote.seconds))),
                                           ("ratio", .double(round3(cliEmbedded.seconds / cliRemote.seconds))),
                                           ("target", .double(0.5)), ("met", .bool(cliEmbedded.seconds / cliRemote.seconds >= 0.5)),
                                           ("client_peak_rss_mb", .double(round3(Double(cliRemote.peakKiB) / 1024))),
                                           ("timed", .string("whole `cloudsync --cloud URL --device NEW fetch-changes --json` process, stdout to /dev/null"))])),
            ("modify_latency_ms", .object([("clients", .int(Int64(clients))), ("modifies_per_client", .int(Int64(modifies))),
                                           ("p50", .double(round3(modify.quantile(0.5)))), ("p99", .double(round3(modify.quantile(0.99)))),
                                           ("all", modify.json)])),
            ("server_rss", .object([("peak_mb", .double(round3(serverPeak))), ("target_mb", .double(200)), ("met", .bool(serverPeak < 200)),
                                    ("before_load_mb", .double(round3(Double(rssBeforeLoad) / 1024))),
                                    ("measured", .string("VmHWM of the serve process after the fetches and the concurrent modifies"))])),
            ("notification_latency_ms", .object([("median", .double(round3(notifyMedian))), ("target_median", .double(50)),
                                                 ("met", .bool(notifyMedian < 50)), ("all", notify.json),
                                                 ("timed", .string("HTTPCloud modifyRecords call (device laptop) → line printed by `cloudsync --cloud URL --device phone --json subscribe listen`"))])),
        ])
    }

    func notifications(base: String, token: String) throws -> LatencyStats {
        let cloud = client(base, token)
        let laptop = try BenchCloud.request(cloud, device: "laptop")
        let phone = try BenchCloud.request(cloud, device: "phone")
        _ = try cloud.saveSubscriptions([Subscription(subscriptionID: "bench-changes", kind: .database)], in: phone)
        let listener = try LineProcess(executable: cloudsync, arguments: ["--cloud", base, "--device", "phone", "--json", "subscribe", "listen"],
                                       environment: environment(work + "/listener", token: token), stderrPath: work + "/listener.log")
        defer { _ = listener.stop() }
        var counter = 0
        func change() throws {
            counter += 1
            let record = Record(recordID: RecordID(recordName: "n\(counter % 100)", zoneID: laptop.zoneID(BenchCloud.zoneName)),
                                recordType: "Item", fields: ["count": .int64(Int64(counter))])
            let result = try cloud.modifyRecords(ModifyRequest(saves: [record], policy: .allKeys), in: laptop)
            if let failure = result.partialFailure { throw BenchFailure("\(failure)") }
        }
        func expectLine(_ what: String) throws {
            guard let line = listener.readLine(timeout: 10) else { throw BenchFailure("no notification for \(what) within 10 s; see \(work)/listener.log") }
            guard (try? JSONValue.parse(line))?["notificationType"] != nil else { throw BenchFailure("unexpected line: \(line)") }
        }
        log("  notification latency: 10 warm-up + \(options.notifications) commits → remote listener")
        for i in 0..<10 { try change(); try expectLine("warm-up \(i)") }
        var samples: [Double] = []
        for i in 0..<options.notifications {
            let start = Clock.now()
            try change()
            try expectLine("change \(i)")
            samples.append((Clock.now() - start) * 1000)
        }
        let stats = LatencyStats(samples)
        log("  notification latency median \(fixed(stats.quantile(0.5))) ms, p99 \(fixed(stats.quantile(0.99))) ms")
        return stats
    }
}
