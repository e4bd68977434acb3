import CloudSyncCore

/// A fetch into a fresh device run in a child process (`child-fetch` relaying to
/// `child-fetch-run`), with what the fetch process reported and what wait4 reported about it.
struct ChildFetch {
    var records: Int
    /// The fetch alone, timed inside the child.
    var seconds: Double
    /// The whole fetch process: exec, open the files, fetch, exit.
    var processSeconds: Double
    /// ru_maxrss of the fetch process from wait4 (in the relay).
    var maxRSSKiB: Int
    /// The child's own VmHWM just after the fetch.
    var vmHWMKiB: Int
    /// The child's RSS before the fetch began (binary, libraries, opened files).
    var rssBeforeFetchKiB: Int
    var pages: Int
    /// The relay's peak RSS when it started the fetch process (inherited into ru_maxrss).
    var relayPeakKiB: Int

    var recordsPerSecond: Double { Double(records) / seconds }
    var peakMiB: Double { Double(maxRSSKiB) / 1024 }

    /// Runs `cloudsync-bench child-fetch CLOUD DEVICE [PAGE_SIZE]` and collects its figures.
    /// The relay's own stdout goes to a file, so the parent reads one JSON document.
    static func run(cloud: String, device: String, pageSize: Int?, work: WorkDirectory) throws -> ChildFetch {
        let out = work.file("child-fetch.json")
        defer { FileIO.remove(out) }
        var arguments = [ChildFetchRelay.name, cloud, device]
        if let pageSize { arguments.append(String(pageSize)) }
        let outcome = try Spawn.run(Spawn.selfExecutable(), arguments, stdoutPath: out)
        guard outcome.status == 0 else { throw BenchError("child-fetch exited with status \(outcome.status)") }
        let report = try JSONValue.parse(bytes: try FileIO.read(out))
        func int(_ key: String) -> Int { Int(report[key]?.int64Value ?? 0) }
        return ChildFetch(records: int("records"), seconds: report["seconds"]?.doubleValue ?? 0,
                          processSeconds: report["process_seconds"]?.doubleValue ?? 0,
                          maxRSSKiB: int("wait4_maxrss_kb"),
                          vmHWMKiB: int("vm_hwm_kb"), rssBeforeFetchKiB: int("rss_before_fetch_kb"),
                          pages: int("pages"), relayPeakKiB: int("relay_vm_hwm_kb"))
    }

    func json() -> JSONValue {
        .object([
            ("records", JSONFigures.int(records)),
            ("pages", JSONFigures.int(pages)),
            ("fetch_seconds", JSONFigures.number(seconds, 4)),
            ("records_per_s", JSONFigures.rate(recordsPerSecond)),
            ("process_seconds", JSONFigures.number(processSeconds, 4)),
            ("peak_rss_mb", JSONFigures.number(peakMiB, 1)),
            ("child_vm_hwm_mb", JSONFigures.number(Double(vmHWMKiB) / 1024, 1)),
            ("rss_before_fetch_mb", JSONFigures.number(Double(rssBeforeFetchKiB) / 1024, 1)),
            ("relay_peak_mb", JSONFigures.number(Double(relayPeakKiB) / 1024, 1)),
        ])
    }
}
