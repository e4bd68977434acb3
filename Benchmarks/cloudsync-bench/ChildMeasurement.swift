import CloudSyncCore

/// One operation (a fetch, a push, a pull) run alone in a child process (`child-OP` relaying
/// to `child-OP-run`), with what the child reported and what wait4 reported about it.
struct ChildMeasurement {
    var operation: ChildOperation
    var records: Int
    /// The operation alone, timed inside the child.
    var seconds: Double
    /// The whole child process: exec, open the files, run, exit.
    var processSeconds: Double
    /// ru_maxrss of the child from wait4 (in the relay).
    var maxRSSKiB: Int
    /// The child's own VmHWM just after the operation.
    var vmHWMKiB: Int
    /// The child's RSS before the operation began (binary, libraries, opened files).
    var rssBeforeKiB: Int
    /// Pages of a fetch (nil for the others).
    var pages: Int?
    /// The relay's peak RSS when it started the child (inherited into ru_maxrss).
    var relayPeakKiB: Int

    var recordsPerSecond: Double { Double(records) / seconds }
    var peakMiB: Double { Double(maxRSSKiB) / 1024 }

    /// Runs `cloudsync-bench child-OP CLOUD DEVICE [SIZE]` and collects its figures. The
    /// relay's own stdout goes to a file, so the parent reads one JSON document.
    static func run(_ operation: ChildOperation, cloud: String, device: String, size: Int?,
                    work: WorkDirectory) throws -> ChildMeasurement {
        let out = work.file("\(operation.relayName).json")
        defer { FileIO.remove(out) }
        var arguments = [operation.relayName, cloud, device]
        if let size { arguments.append(String(size)) }
        let outcome = try Spawn.run(Spawn.selfExecutable(), arguments, stdoutPath: out)
        guard outcome.status == 0 else { throw BenchError("\(operation.relayName) exited with status \(outcome.status)") }
        let report = try JSONValue.parse(bytes: try FileIO.read(out))
        func int(_ key: String) -> Int { Int(report[key]?.int64Value ?? 0) }
        return ChildMeasurement(operation: operation, records: int("records"), seconds: report["seconds"]?.doubleValue ?? 0,
                                processSeconds: report["process_seconds"]?.doubleValue ?? 0,
                                maxRSSKiB: int("wait4_maxrss_kb"), vmHWMKiB: int("vm_hwm_kb"),
                                rssBeforeKiB: int("rss_before_kb"), pages: report["pages"]?.int64Value.map { Int($0) },
                                relayPeakKiB: int("relay_vm_hwm_kb"))
    }

    /// Runs the child and checks that it moved `expected` records.
    static func run(_ operation: ChildOperation, cloud: String, device: String, size: Int?, expected: Int,
                    work: WorkDirectory) throws -> ChildMeasurement {
        let child = try run(operation, cloud: cloud, device: device, size: size, work: work)
        guard child.records == expected else {
            throw BenchError("the \(operation.rawValue) child moved \(child.records) records, expected \(expected)")
        }
        return child
    }

    func json() -> JSONValue {
        let verb = operation.rawValue
        var pairs: [(String, JSONValue)] = [("records", JSONFigures.int(records))]
        if let pages { pairs.append(("pages", JSONFigures.int(pages))) }
        pairs += [
            ("\(verb)_seconds", JSONFigures.number(seconds, 4)),
            ("records_per_s", JSONFigures.rate(recordsPerSecond)),
            ("process_seconds", JSONFigures.number(processSeconds, 4)),
            ("peak_rss_mb", JSONFigures.number(peakMiB, 1)),
            ("child_vm_hwm_mb", JSONFigures.number(Double(vmHWMKiB) / 1024, 1)),
            ("rss_before_\(verb)_mb", JSONFigures.number(Double(rssBeforeKiB) / 1024, 1)),
            ("relay_peak_mb", JSONFigures.number(Double(relayPeakKiB) / 1024, 1)),
        ]
        return .object(pairs)
    }
}
