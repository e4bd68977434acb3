import CloudSyncCore

/// The hidden subcommand `cloudsync-bench child-fetch CLOUD DEVICE [PAGE_SIZE]`: starts
/// `child-fetch-run` with the same arguments, waits for it with wait4 and prints its JSON report
/// with `wait4_maxrss_kb` added.
///
/// Why a relay: glibc's posix_spawn clones with CLONE_VM, and Linux carries the high-water RSS
/// of the pre-exec address space (here: the parent's) into the child's `ru_maxrss`. Started
/// straight from the bench, whose peak holds 100,000 prepared records, the child would report
/// the bench's peak, not its own. The relay is a fresh small process, so the fetch process it
/// starts inherits only the relay's few megabytes.
enum ChildFetchRelay {
    static let name = "child-fetch"

    static func run(_ arguments: [String]) throws -> JSONValue {
        guard arguments.count == 2 || arguments.count == 3 else {
            throw BenchError("usage: cloudsync-bench \(name) CLOUD DEVICE [PAGE_SIZE]")
        }
        let out = arguments[1] + ".report.json"
        defer { FileIO.remove(out) }
        let relayPeak = ProcessMemory.peakKiB
        let outcome = try Spawn.run(Spawn.selfExecutable(), [ChildFetchCommand.name] + arguments, stdoutPath: out)
        guard outcome.status == 0 else { throw BenchError("\(ChildFetchCommand.name) exited with status \(outcome.status)") }
        guard case .object(var pairs) = try JSONValue.parse(bytes: try FileIO.read(out)) else {
            throw BenchError("\(ChildFetchCommand.name) printed no JSON object")
        }
        pairs.append(("wait4_maxrss_kb", JSONFigures.int(outcome.maxRSSKiB)))
        pairs.append(("process_seconds", JSONFigures.number(outcome.seconds, 4)))
        pairs.append(("relay_vm_hwm_kb", JSONFigures.int(relayPeak)))
        return .object(pairs)
    }
}
