import CloudSyncCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A plan of failures: the next calls fail with these codes, in order.
/// Parsed from `CLOUDSYNC_FAULTS`, e.g. `networkUnavailable:3,zoneBusy:1` fails the next three
/// calls with networkUnavailable and then one with zoneBusy. `code@operation:n` limits a fault
/// to one operation (`modifyRecords`, `fetchZoneChanges`, …).
public struct FaultPlan: Sendable, Hashable {
    /// One planned failure run.
    public struct Fault: Sendable, Hashable {
        public var code: CloudError.Code
        public var operation: String?
        public var remaining: Int
    }

    public var faults: [Fault]

    public init(faults: [Fault] = []) { self.faults = faults }

    /// Parses the `CLOUDSYNC_FAULTS` syntax: comma-separated `code[@operation][:count]` items.
    /// Total: any text gives a plan or an `invalidArguments` error naming the bad item.
    public init(parsing text: String) throws(CloudError) {
        var faults: [Fault] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) where !part.isEmpty {
            faults.append(try Self.fault(part))
        }
        self.faults = faults
    }

    /// One `code[@operation][:count]` item.
    static func fault(_ part: Substring) throws(CloudError) -> Fault {
        let shape = "fault '\(part)' in CLOUDSYNC_FAULTS must be code[@operation][:count]"
        let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count <= 2 else { throw CloudError(.invalidArguments, shape) }
        let head = pieces[0].split(separator: "@", omittingEmptySubsequences: false)
        guard head.count <= 2, let codeName = head.first, !codeName.isEmpty else { throw CloudError(.invalidArguments, shape) }
        guard let code = CloudError.Code(rawValue: String(codeName)) else {
            throw CloudError(.invalidArguments,
                             "unknown fault code '\(codeName)' in CLOUDSYNC_FAULTS (use a CKError name such as networkUnavailable)")
        }
        var operation: String?
        if head.count == 2 {
            guard !head[1].isEmpty else { throw CloudError(.invalidArguments, shape) }
            operation = String(head[1])
        }
        var count = 1
        if pieces.count == 2 {
            guard let n = Int(pieces[1]), n >= 1 else {
                throw CloudError(.invalidArguments, "fault count '\(pieces[1])' in CLOUDSYNC_FAULTS must be a positive number")
            }
            count = n
        }
        return Fault(code: code, operation: operation, remaining: count)
    }

    /// Takes the next fault for `operation`, if one is planned.
    mutating func take(_ operation: String) -> CloudError.Code? {
        guard let index = faults.firstIndex(where: { $0.remaining > 0 && ($0.operation == nil || $0.operation == operation) }) else {
            return nil
        }
        // Faults fire in order: an earlier unconsumed fault for another operation does not block.
        faults[index].remaining -= 1
        return faults[index].code
    }
}

/// Wraps a `CloudService` and fails data calls as a `FaultPlan` says, counting every call. Used by
/// tests and by `CLOUDSYNC_FAULTS` to drive every recovery path of the sync engine.
public final class FaultInjectingCloud: CloudService, @unchecked Sendable {
    public let base: any CloudService
    let state: Mutex<(plan: FaultPlan, calls: [String: Int])>

    /// A file every call is appended to, one operation name per line (`CLOUDSYNC_CALL_LOG`),
    /// so tests of the built binary can count calls.
    let callLog: String?
    /// Seconds every data call waits before it runs (`CLOUDSYNC_FAULT_DELAY_MS` of `serve`: a
    /// slow cloud, so tests can fill a server's request slots).
    let delay: Double

    public init(wrapping base: any CloudService, plan: FaultPlan, callLog: String? = nil, delay: Double = 0) {
        self.base = base
        self.state = Mutex((plan, [:]))
        self.callLog = callLog
        self.delay = delay
    }

    /// The wrapped cloud's capabilities, with the data calls going through the faults; schema,
    /// sharing and the user directory are forwarded unchanged.
    public var capabilities: CloudCapabilities { base.capabilities.forwarded(through: self) }

    func log(_ operation: String) {
        guard let callLog else { return }
        let fd = open(callLog, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let line = Array((operation + "\n").utf8)
        _ = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// How many calls each operation received (including failed ones).
    public var callCounts: [String: Int] { state.withLock { $0.calls } }

    /// Total data calls: zones, records, changes and assets (not account look-ups and not the
    /// key-value store, which is how the sync toggle travels).
    public var dataCallCount: Int {
        state.withLock { $0.calls.filter { !FaultInjectingCloud.controlCalls.contains($0.key) }.values.reduce(0, +) }
    }

    static let controlCalls: Set<String> = ["account", "modifyKeyValues", "fetchKeyValueChanges"]

    func enter(_ operation: String) throws(CloudError) {
        log(operation)
        if delay > 0 { RetryingCloud.systemSleep(delay) }
        let code: CloudError.Code? = state.withLock { s in
            s.calls[operation, default: 0] += 1
            return s.plan.take(operation)
        }
        guard let code else { return }
        var error = CloudError(code, "injected fault: \(code.rawValue) (CLOUDSYNC_FAULTS)")
        if code == .requestRateLimited || code == .zoneBusy || code == .serviceUnavailable { error.retryAfter = 0.01 }
        throw error
    }

    /// Account look-ups are the sign-in, not a data call: counted, never failed.
    public func account(named name: String) throws(CloudError) -> Account {
        state.withLock { $0.calls["account", default: 0] += 1 }
        log("account")
        return try base.account(named: name)
    }

    public func saveZones(_ zones: [ZoneSpec], in database: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        try enter("saveZones")
        return try base.saveZones(zones, in: database)
    }

    public func fetchAllZones(in database: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        try enter("fetchAllZones")
        return try base.fetchAllZones(in: database)
    }

    public func deleteZones(_ names: [String], purge: Bool, in database: DatabaseRequest) throws(CloudError) {
        try enter("deleteZones")
        try base.deleteZones(names, purge: purge, in: database)
    }

    public func modifyRecords(_ request: ModifyRequest, in database: DatabaseRequest) throws(CloudError) -> ModifyResult {
        try enter("modifyRecords")
        return try base.modifyRecords(request, in: database)
    }

    public func fetchRecords(_ ids: [RecordID], in database: DatabaseRequest) throws(CloudError) -> [RecordID: Result<Record, CloudError>] {
        try enter("fetchRecords")
        return try base.fetchRecords(ids, in: database)
    }

    public func queryRecords(_ query: RecordQuery, in database: DatabaseRequest) throws(CloudError) -> QueryPage {
        try enter("queryRecords")
        return try base.queryRecords(query, in: database)
    }

    public func fetchDatabaseChanges(since token: ServerChangeToken?, limit: Int,
                                     in database: DatabaseRequest) throws(CloudError) -> DatabaseChanges {
        try enter("fetchDatabaseChanges")
        return try base.fetchDatabaseChanges(since: token, limit: limit, in: database)
    }

    public func fetchZoneChanges(_ zoneName: String, since token: ServerChangeToken?, limit: Int,
                                 holding known: (any KnownRecordVersions)?, in database: DatabaseRequest) throws(CloudError) -> ZoneChanges {
        try enter("fetchZoneChanges")
        return try base.fetchZoneChanges(zoneName, since: token, limit: limit, holding: known, in: database)
    }

    public func uploadAssets(_ contents: [[UInt8]], in database: DatabaseRequest) throws(CloudError) -> [AssetReference] {
        try enter("uploadAssets")
        return try base.uploadAssets(contents, in: database)
    }

    public func fetchAsset(_ reference: AssetReference, of record: RecordID?, in database: DatabaseRequest) throws(CloudError) -> [UInt8] {
        try enter("fetchAsset")
        return try base.fetchAsset(reference, of: record, in: database)
    }

    public func modifyKeyValues(_ writes: [KeyValueWrite], in database: DatabaseRequest) throws(CloudError) -> [KeyValueItem] {
        try enter("modifyKeyValues")
        return try base.modifyKeyValues(writes, in: database)
    }

    public func fetchKeyValueChanges(since token: ServerChangeToken?, in database: DatabaseRequest) throws(CloudError) -> KeyValueChanges {
        try enter("fetchKeyValueChanges")
        return try base.fetchKeyValueChanges(since: token, in: database)
    }

    // MARK: Subscriptions and notifications

    public func saveSubscriptions(_ subscriptions: [Subscription], in database: DatabaseRequest) throws(CloudError) -> [Subscription] {
        try enter("saveSubscriptions")
        return try base.saveSubscriptions(subscriptions, in: database)
    }

    public func fetchAllSubscriptions(in database: DatabaseRequest) throws(CloudError) -> [Subscription] {
        try enter("fetchAllSubscriptions")
        return try base.fetchAllSubscriptions(in: database)
    }

    public func deleteSubscriptions(_ ids: [String], in database: DatabaseRequest) throws(CloudError) {
        try enter("deleteSubscriptions")
        try base.deleteSubscriptions(ids, in: database)
    }

    public func registerDevice(_ device: DeviceAddress) throws(CloudError) {
        try enter("registerDevice")
        try base.registerDevice(device)
    }

    public func unregisterDevice(_ device: DeviceAddress) throws(CloudError) {
        try enter("unregisterDevice")
        try base.unregisterDevice(device)
    }

    public func takeNotifications(for device: DeviceAddress, limit: Int) throws(CloudError) -> [CloudNotification] {
        try enter("takeNotifications")
        return try base.takeNotifications(for: device, limit: limit)
    }

    public func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        try enter("makeNotificationWaiter")
        return try base.makeNotificationWaiter(for: device)
    }
}
