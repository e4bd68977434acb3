import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice

/// The local-store side of the bench: a device whose local store holds pending records (the
/// save benchmark's records, in the local store's default zone), the library `Synchronizer`
/// that pushes them (the `icloud_sync` toggle is a CLI concern, so it is not consulted), and a
/// second device that pulls them.
enum StoreWorkload {
    /// The device that puts and pushes.
    static let pusher = BenchSetup.deviceID
    /// The fresh device that pulls what the pusher saved.
    static let puller = "bench-puller"
    static let zoneName = LocalStoreDefaults.zoneName
    static let container = BenchSetup.container
    /// Puts per device transaction while building (each put stays its own history transaction).
    static let putsPerTransaction = 5_000

    /// Creates the device file `path` (or fills it, if it exists with an empty local store)
    /// so that its local store holds records 0..<rows, each put with
    /// `DeviceStore.put` (its own history transaction, so each record is pending on its own);
    /// the puts are grouped in larger device transactions, only to write the file faster.
    /// The store is closed on return (its WAL checkpointed), so the file can be copied.
    static func buildPendingDevice(_ path: String, rows: Int) throws {
        let store = try DeviceStore(path: path)
        let zone = ZoneID(zoneName: zoneName, ownerRecordName: "")
        let now = systemClock()
        for start in stride(from: 0, to: rows, by: putsPerTransaction) {
            try store.transaction {
                for index in start..<min(start + putsPerTransaction, rows) {
                    let record = SampleRecords.record(index, zone: zone)
                    try store.put(container: container, zone: zoneName, name: record.recordID.recordName,
                                  type: record.recordType, fields: record.fields, device: pusher, now: now)
                }
            }
        }
        let pending = try store.pendingCount(container: container)
        guard pending == rows else { throw BenchError("the device has \(pending) pending records, expected \(rows)") }
    }

    /// The hidden subcommand that runs `buildPendingDevice`.
    static let pendingDeviceCommand = "pending-device"

    /// `cloudsync-bench pending-device DEVICE ROWS`: writes a fresh pending device.
    static func runPendingDevice(_ arguments: [String]) throws -> JSONValue {
        guard arguments.count == 2, let rows = Int(arguments[1]), rows > 0, !FileIO.exists(arguments[0]) else {
            throw BenchError("usage: cloudsync-bench \(pendingDeviceCommand) NEW-DEVICE-FILE ROWS")
        }
        let seconds = try MonotonicClock.measure { try buildPendingDevice(arguments[0], rows: rows) }.seconds
        return .object([("rows", JSONFigures.int(rows)), ("seconds", JSONFigures.number(seconds, 3))])
    }

    /// The synchronizer of `store` as `device`, with the generic store adapter.
    static func synchronizer(_ cloud: SQLiteCloud, _ store: DeviceStore, device: String, batchSize: Int? = nil,
                             pageSize: Int? = nil) throws -> Synchronizer {
        var options = SyncOptions()
        if let batchSize { options.batchSize = batchSize }
        if let pageSize { options.pageSize = pageSize }
        return Synchronizer(cloud: cloud, store: store, request: try BenchSetup.request(cloud, deviceID: device),
                            adapter: GenericStoreAdapter(), options: options)
    }

    /// A checked synchronizer call and the seconds of the call alone (the check not included).
    struct Timed {
        var report: SyncReport
        var seconds: Double
        /// CPU time of this process during the call.
        var cpuSeconds: Double
    }

    /// `Synchronizer.push`, checked: no failure, no conflict, nothing left pending.
    static func push(_ synchronizer: Synchronizer) throws -> Timed {
        try timed(synchronizer, "push") { report throws(CloudError) in try synchronizer.push(&report) }
    }

    /// `Synchronizer.pull`, checked: no failure or conflict, and every pulled record is in the
    /// local store.
    static func pull(_ synchronizer: Synchronizer) throws -> Timed {
        try timed(synchronizer, "pull") { report throws(CloudError) in try synchronizer.pull(&report) }
    }

    /// `Synchronizer.sync()`, checked like a push and a pull.
    static func sync(_ synchronizer: Synchronizer) throws -> Timed {
        try timed(synchronizer, "sync") { report throws(CloudError) in report = try synchronizer.sync() }
    }

    static func timed(_ synchronizer: Synchronizer, _ what: String,
                      _ body: (inout SyncReport) throws(CloudError) -> Void) throws -> Timed {
        var report = SyncReport()
        let cpu = MonotonicClock.processCPU()
        let start = MonotonicClock.now()
        try body(&report)
        let seconds = MonotonicClock.now() - start
        let cpuSeconds = MonotonicClock.processCPU() - cpu
        try check(report, synchronizer, what: what)
        return Timed(report: report, seconds: seconds, cpuSeconds: cpuSeconds)
    }

    static func check(_ report: SyncReport, _ synchronizer: Synchronizer, what: String) throws {
        guard report.failures.isEmpty, report.conflicts.isEmpty else {
            throw BenchError("\(what): \(report.failures.count) failures, \(report.conflicts.count) conflicts")
        }
        let status = try synchronizer.store.storeStatus(container: container)
        guard status.pending == 0 else { throw BenchError("\(what): \(status.pending) records still pending") }
        guard status.records >= report.savedRecords, status.records >= report.pulledChanges else {
            throw BenchError("\(what): the local store holds \(status.records) records after saving \(report.savedRecords) and pulling \(report.pulledChanges)")
        }
    }
}
