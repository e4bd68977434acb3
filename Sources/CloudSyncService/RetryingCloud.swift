import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// How a client retries transient failures: at most `maxAttempts` tries, exponential backoff
/// from `baseDelay` up to `maxDelay`, and a server's `retryAfter` honoured (up to `maxDelay`
/// times four).
public struct RetryPolicy: Sendable, Hashable {
    public var maxAttempts: Int
    public var baseDelay: Double
    public var maxDelay: Double
    /// Retry only the failures that mean "busy, try later" (exit 75: `requestRateLimited`,
    /// `zoneBusy`, and `serviceUnavailable` with a `retryAfter`, such as a server's 503 with
    /// Retry-After), not an unreachable cloud.
    public var onlyTryLater: Bool

    public init(maxAttempts: Int = 5, baseDelay: Double = 0.05, maxDelay: Double = 2, onlyTryLater: Bool = false) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.onlyTryLater = onlyTryLater
    }

    /// What every command's cloud does (single calls such as `record save` included): a busy
    /// cloud is tried four times in all, honouring its `retryAfter`, before the command exits 75.
    public static let tryLater = RetryPolicy(maxAttempts: 4, baseDelay: 0.25, maxDelay: 2, onlyTryLater: true)

    /// Whether `error` is retried under this policy.
    public func retries(_ error: CloudError) -> Bool {
        guard error.code.isRetryable else { return false }
        guard onlyTryLater else { return true }
        switch error.code {
        case .requestRateLimited, .zoneBusy: return true
        case .serviceUnavailable: return error.retryAfter != nil
        default: return false
        }
    }

    /// Seconds to wait before try number `attempt + 1` after `error`: its `retryAfter` when
    /// positive, the exponential backoff otherwise (a `retryAfter` of 0 says "retry" without a
    /// delay of its own, such as a connection closed before any reply).
    public func delay(after error: CloudError, attempt: Int) -> Double {
        if let retryAfter = error.retryAfter, retryAfter > 0 { return min(retryAfter, maxDelay * 4) }
        return min(baseDelay * Double(1 << min(attempt, 20)), maxDelay)
    }
}

/// Wraps a `CloudService` and retries every call that fails with a transient error
/// (`networkUnavailable`, `networkFailure`, `serviceUnavailable`, `requestRateLimited`,
/// `zoneBusy`) per its `RetryPolicy`; when the tries run out, the last error is thrown with the
/// number of tries in its reason. Calls are idempotent at this level: a modify call either
/// committed whole or not at all.
public final class RetryingCloud: CloudService, @unchecked Sendable {
    public let base: any CloudService
    public let policy: RetryPolicy
    let sleep: @Sendable (Double) -> Void
    /// Told of each retry before its wait: the error, the number of the try that failed, the
    /// most tries and the seconds it waits (a CLI prints one line per retry on a terminal).
    let onRetry: (@Sendable (_ error: CloudError, _ attempt: Int, _ maxAttempts: Int, _ delay: Double) -> Void)?

    public init(wrapping base: any CloudService, policy: RetryPolicy = RetryPolicy(),
                sleep: @escaping @Sendable (Double) -> Void = RetryingCloud.systemSleep,
                onRetry: (@Sendable (_ error: CloudError, _ attempt: Int, _ maxAttempts: Int, _ delay: Double) -> Void)? = nil) {
        self.base = base
        self.policy = policy
        self.sleep = sleep
        self.onRetry = onRetry
    }

    /// The wrapped cloud's capabilities, with the data calls retried; schema, sharing and the
    /// user directory are forwarded unchanged (not retried).
    public var capabilities: CloudCapabilities { base.capabilities.forwarded(through: self) }

    /// Sleeps with nanosleep.
    public static let systemSleep: @Sendable (Double) -> Void = { seconds in
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    func retrying<T>(_ body: () throws(CloudError) -> T) throws(CloudError) -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch {
                attempt += 1
                guard policy.retries(error) else { throw error }
                guard attempt < policy.maxAttempts else {
                    var final = error
                    final.reason += " (gave up after \(attempt) tries)"
                    throw final
                }
                let delay = policy.delay(after: error, attempt: attempt - 1)
                onRetry?(error, attempt, policy.maxAttempts, delay)
                sleep(delay)
            }
        }
    }

    public func account(named name: String) throws(CloudError) -> Account {
        try retrying { () throws(CloudError) in try base.account(named: name) }
    }

    public func saveZones(_ zones: [ZoneSpec], in database: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        try retrying { () throws(CloudError) in try base.saveZones(zones, in: database) }
    }

    public func fetchAllZones(in database: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        try retrying { () throws(CloudError) in try base.fetchAllZones(in: database) }
    }

    public func deleteZones(_ names: [String], purge: Bool, in database: DatabaseRequest) throws(CloudError) {
        try retrying { () throws(CloudError) in try base.deleteZones(names, purge: purge, in: database) }
    }

    public func modifyRecords(_ request: ModifyRequest, in database: DatabaseRequest) throws(CloudError) -> ModifyResult {
        try retrying { () throws(CloudError) in try base.modifyRecords(request, in: database) }
    }

    public func fetchRecords(_ ids: [RecordID], in database: DatabaseRequest) throws(CloudError) -> [RecordID: Result<Record, CloudError>] {
        try retrying { () throws(CloudError) in try base.fetchRecords(ids, in: database) }
    }

    public func queryRecords(_ query: RecordQuery, in database: DatabaseRequest) throws(CloudError) -> QueryPage {
        try retrying { () throws(CloudError) in try base.queryRecords(query, in: database) }
    }

    public func fetchDatabaseChanges(since token: ServerChangeToken?, limit: Int,
                                     in database: DatabaseRequest) throws(CloudError) -> DatabaseChanges {
        try retrying { () throws(CloudError) in try base.fetchDatabaseChanges(since: token, limit: limit, in: database) }
    }

    public func fetchZoneChanges(_ zoneName: String, since token: ServerChangeToken?, limit: Int,
                                 holding known: (any KnownRecordVersions)?, in database: DatabaseRequest) throws(CloudError) -> ZoneChanges {
        try retrying { () throws(CloudError) in
            try base.fetchZoneChanges(zoneName, since: token, limit: limit, holding: known, in: database)
        }
    }

    public func uploadAssets(_ contents: [[UInt8]], in database: DatabaseRequest) throws(CloudError) -> [AssetReference] {
        try retrying { () throws(CloudError) in try base.uploadAssets(contents, in: database) }
    }

    public func fetchAsset(_ reference: AssetReference, of record: RecordID?, in database: DatabaseRequest) throws(CloudError) -> [UInt8] {
        try retrying { () throws(CloudError) in try base.fetchAsset(reference, of: record, in: database) }
    }

    public func modifyKeyValues(_ writes: [KeyValueWrite], in database: DatabaseRequest) throws(CloudError) -> [KeyValueItem] {
        try retrying { () throws(CloudError) in try base.modifyKeyValues(writes, in: database) }
    }

    public func fetchKeyValueChanges(since token: ServerChangeToken?, in database: DatabaseRequest) throws(CloudError) -> KeyValueChanges {
        try retrying { () throws(CloudError) in try base.fetchKeyValueChanges(since: token, in: database) }
    }

    // MARK: Subscriptions and notifications

    public func saveSubscriptions(_ subscriptions: [Subscription], in database: DatabaseRequest) throws(CloudError) -> [Subscription] {
        try retrying { () throws(CloudError) in try base.saveSubscriptions(subscriptions, in: database) }
    }

    public func fetchAllSubscriptions(in database: DatabaseRequest) throws(CloudError) -> [Subscription] {
        try retrying { () throws(CloudError) in try base.fetchAllSubscriptions(in: database) }
    }

    public func deleteSubscriptions(_ ids: [String], in database: DatabaseRequest) throws(CloudError) {
        try retrying { () throws(CloudError) in try base.deleteSubscriptions(ids, in: database) }
    }

    public func registerDevice(_ device: DeviceAddress) throws(CloudError) {
        try retrying { () throws(CloudError) in try base.registerDevice(device) }
    }

    public func unregisterDevice(_ device: DeviceAddress) throws(CloudError) {
        try retrying { () throws(CloudError) in try base.unregisterDevice(device) }
    }

    public func takeNotifications(for device: DeviceAddress, limit: Int) throws(CloudError) -> [CloudNotification] {
        try retrying { () throws(CloudError) in try base.takeNotifications(for: device, limit: limit) }
    }

    public func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        try retrying { () throws(CloudError) in try base.makeNotificationWaiter(for: device) }
    }
}
