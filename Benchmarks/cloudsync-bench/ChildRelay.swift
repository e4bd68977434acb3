import CloudSyncCore

/// The hidden subcommands `cloudsync-bench child-OP CLOUD DEVICE [SIZE]`: start
/// `child-OP-run` with the same arguments, wait for it with wait4 and print its JSON report
/// with `wait4_maxrss_kb` added.
///
/// Why a relay: glibc's posix_spawn clones with CLONE_VM, and Linux carries the high-water RSS
/// of the pre-exec address space (here: the parent's) into the child's `ru_maxrss`. Started
/// straight from the bench, whose peak holds 100,000 prepared records, the child would report
/// the bench's peak, not its own. The relay is a fresh small process, so the process it starts
/// inherits only the relay's few megabytes.
enum ChildRelay {
    static func run(_ operation: ChildOperation, _ arguments: [String]) throws -> JSONValue {
        let device = try operation.parse(arguments, as: operation.relayName).device
        let out = device + ".report.json"
        defer { FileIO.remove(out) }
        let relayPeak = ProcessMemory.peakKiB
        let outcome = try Spawn.run(Spawn.selfExecutable(), [operation.runName] + arguments, stdoutPath: out)
        guard outcome.status == 0 else { throw BenchError("\(operation.runName) exited with status \(outcome.status)") }
        guard case .object(var pairs) = try JSONValue.parse(bytes: try FileIO.read(out)) else {
            throw BenchError("\(operation.runName) printed no JSON object")
        }
        pairs.append(("wait4_maxrss_kb", JSONFigures.int(outcome.maxRSSKiB)))
        pairs.append(("process_seconds", JSONFigures.number(outcome.seconds, 4)))
        pairs.append(("relay_vm_hwm_kb", JSONFigures.int(relayPeak)))
        return .object(pairs)
    }
}
