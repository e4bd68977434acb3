import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice

/// What the bench runs alone in a child process to read its peak RSS. Each operation has two
/// hidden subcommands: `child-OP CLOUD DEVICE [SIZE]`, the relay (`ChildRelay`), and
/// `child-OP-run CLOUD DEVICE [SIZE]`, the operation itself (`ChildCommand`).
enum ChildOperation: String, CaseIterable {
    /// `ChangeFetcher.fetch()` of the bench account's whole private database into DEVICE's
    /// cache (SIZE: page size).
    case fetch
    /// `Synchronizer.push` of every pending record of DEVICE's local store (SIZE: batch size).
    case push
    /// `Synchronizer.pull` into DEVICE's local store as a second device (SIZE: page size).
    case pull

    var relayName: String { "child-" + rawValue }
    var runName: String { relayName + "-run" }

    func usage(_ name: String) -> String { "usage: cloudsync-bench \(name) CLOUD DEVICE [SIZE]" }

    /// The two arguments and the optional size, checked.
    func parse(_ arguments: [String], as name: String) throws -> (cloud: String, device: String, size: Int?) {
        guard arguments.count == 2 || arguments.count == 3 else { throw BenchError(usage(name)) }
        guard arguments.count == 3 else { return (arguments[0], arguments[1], nil) }
        guard let size = Int(arguments[2]), size > 0 else { throw BenchError(usage(name)) }
        return (arguments[0], arguments[1], size)
    }

    /// What a child's operation did.
    struct Outcome {
        var records: Int
        /// The operation alone (its checks not included).
        var seconds: Double
        /// Pages of a fetch.
        var pages: Int?
    }

    /// Opens what the operation needs (not measured) and returns the operation itself.
    func prepare(cloud: SQLiteCloud, store: DeviceStore, size: Int?) throws -> () throws -> Outcome {
        switch self {
        case .fetch:
            var fetcher = ChangeFetcher(cloud: cloud, store: store, request: try BenchSetup.request(cloud))
            if let size { fetcher.pageSize = size }
            return {
                let (summary, seconds) = try MonotonicClock.measure { try fetcher.fetch() }
                return Outcome(records: summary.changedRecords, seconds: seconds, pages: summary.pages)
            }
        case .push:
            let synchronizer = try StoreWorkload.synchronizer(cloud, store, device: StoreWorkload.pusher, batchSize: size)
            return {
                let push = try StoreWorkload.push(synchronizer)
                return Outcome(records: push.report.savedRecords, seconds: push.seconds)
            }
        case .pull:
            let synchronizer = try StoreWorkload.synchronizer(cloud, store, device: StoreWorkload.puller, pageSize: size)
            return {
                let pull = try StoreWorkload.pull(synchronizer)
                return Outcome(records: pull.report.pulledChanges, seconds: pull.seconds)
            }
        }
    }
}

/// The hidden subcommands `cloudsync-bench child-OP-run CLOUD DEVICE [SIZE]`: open the cloud
/// file and the device file, run the operation, then print one JSON line with the child's own
/// figures (timing, RSS before the operation, VmHWM). Started by `ChildRelay`, which reads the
/// peak RSS from wait4.
enum ChildCommand {
    static func run(_ operation: ChildOperation, _ arguments: [String]) throws -> JSONValue {
        let (cloudPath, devicePath, size) = try operation.parse(arguments, as: operation.runName)
        let rssAtStart = ProcessMemory.residentKiB
        let cloud = try SQLiteCloud(path: cloudPath)
        let store = try DeviceStore(path: devicePath)
        let body = try operation.prepare(cloud: cloud, store: store, size: size)
        let rssBefore = ProcessMemory.residentKiB
        let done = try body()
        var pairs: [(String, JSONValue)] = [
            ("operation", .string(operation.rawValue)),
            ("records", JSONFigures.int(done.records)),
            ("seconds", JSONFigures.number(done.seconds, 4)),
            ("rss_at_start_kb", JSONFigures.int(rssAtStart)),
            ("rss_before_kb", JSONFigures.int(rssBefore)),
            ("rss_after_kb", JSONFigures.int(ProcessMemory.residentKiB)),
            ("vm_hwm_kb", JSONFigures.int(ProcessMemory.peakKiB)),
        ]
        if let pages = done.pages { pairs.append(("pages", JSONFigures.int(pages))) }
        if let size { pairs.append(("size", JSONFigures.int(size))) }
        return .object(pairs)
    }
}
