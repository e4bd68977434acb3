import CloudSyncCore

/// The hidden subcommand `cloudsync-bench spawn-relay STDOUT PROGRAM [ARG…]`: runs PROGRAM with
/// its stdout in the file STDOUT, waits for it with wait4 and prints its exit status, wall
/// time, CPU time and `ru_maxrss` as JSON. Started from the bench, a program's `ru_maxrss`
/// would carry the bench's own peak (see `ChildRelay`); started from this small relay, it is
/// the program's own.
enum ProcessRelay {
    static let command = "spawn-relay"

    static func run(_ arguments: [String]) throws -> JSONValue {
        guard arguments.count >= 2 else { throw BenchError("usage: cloudsync-bench \(command) STDOUT PROGRAM [ARG…]") }
        let outcome = try Spawn.run(arguments[1], Array(arguments.dropFirst(2)), stdoutPath: arguments[0])
        return .object([
            ("status", .int(Int64(outcome.status))),
            ("seconds", .double(outcome.seconds)),
            ("cpu_seconds", .double(outcome.cpuSeconds)),
            ("maxrss_kb", .int(Int64(outcome.maxRSSKiB))),
            ("relay_vm_hwm_kb", .int(Int64(ProcessMemory.peakKiB))),
        ])
    }

    /// Runs `program` through the relay; the outcome is the program's own.
    static func spawn(_ program: String, _ arguments: [String], stdoutPath: String, work: WorkDirectory) throws -> Spawn.Outcome {
        let report = work.file("spawn-relay.json")
        defer { FileIO.remove(report) }
        let relay = try Spawn.run(Spawn.selfExecutable(), [command, stdoutPath, program] + arguments, stdoutPath: report)
        guard relay.status == 0 else { throw BenchError("\(command) exited with status \(relay.status)") }
        let json = try JSONValue.parse(bytes: try FileIO.read(report))
        return Spawn.Outcome(status: Int32(json["status"]?.int64Value ?? -1), seconds: json["seconds"]?.doubleValue ?? .nan,
                             maxRSSKiB: Int(json["maxrss_kb"]?.int64Value ?? 0), cpuSeconds: json["cpu_seconds"]?.doubleValue ?? .nan)
    }
}
