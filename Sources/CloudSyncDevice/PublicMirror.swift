import CloudSyncService
import CloudSyncCore

/// Mirrors chosen record types of the public database into a local store of their own (seed
/// 002's `public.sqlite`), as NSPersistentCloudKitContainer mirrors a public store.
///
/// The public database keeps no change tokens, so the pull is a query per type on
/// `modificationDate` since the last sync's watermark, less an overlap margin (timestamps are
/// taken when a save starts, not when it commits, so a slow writer's record can carry a time
/// below a watermark already stored), in pages; records whose cached change tag is the same
/// are skipped. Paging is by key (`modificationDate >= last page's newest`), not by offset, so
/// records changed between pages (which move to the end) never shift another record past the
/// pager. Deletions are found by a periodic full scan of the type (every record returned and
/// compared with the cache), which also heals anything the watermark missed. A query
/// subscription per type lets `subscribe listen` wake the device.
///
/// Each sync first reads the cloud's store epoch (`checkEpoch`): a replaced cloud makes the
/// account's own records pending again instead of letting the scan delete them.
///
/// Pushes go through the private store's `Synchronizer` (pending changes, change tags, merge
/// policy, conflict log); the cloud refuses changes to another account's record with
/// `permissionFailure`, which the push reports and keeps pending, as the private store keeps
/// every change the cloud refuses.
public final class PublicMirror {
    /// Pushes and conflict resolution, over the public store and the public database.
    public let synchronizer: Synchronizer
    /// The record types mirrored.
    public let recordTypes: [String]
    /// Records per query page of the incremental pull. Pages restart at their newest time, so
    /// the records of that time come twice; a save of up to 400 records shares one time, so a
    /// page of 2000 re-reads at most a fifth.
    public var pageSize = 2000
    /// Records per query page of a full scan.
    public var scanPageSize = 2000
    /// How long after a type's last full scan the next sync scans it again (ms); 0: every sync.
    public var scanInterval = PublicMirror.defaultScanInterval
    /// Scan every type on this sync, whatever the interval says.
    public var forceScan = false
    /// The work the last `sync` asked of the cloud (for reports and tests).
    public internal(set) var work = PublicMirrorWork()

    /// How far before the watermark an incremental pull starts (ms).
    public static let overlapMargin: Int64 = 60_000
    /// The default time between full scans of a type (ms): one hour.
    public static let defaultScanInterval: Int64 = 3_600_000
    /// The sync-state key prefix of a type's watermark (newest modification time applied).
    public static let watermarkPrefix = "public_watermark:"
    /// The sync-state key prefix of the time of a type's last full scan.
    public static let scanPrefix = "public_scan_ms:"
    /// The sync-state key listing the query subscriptions this device made.
    public static let subscriptionsKey = "public_subscriptions"
    /// The prefix of the mirror's query subscription IDs (one per type).
    public static let subscriptionPrefix = "cloudsync-public-"

    var store: DeviceStore { synchronizer.store }
    var cloud: any CloudService { synchronizer.cloud }
    var request: DatabaseRequest { synchronizer.request }
    var container: String { request.container }
    var zoneID: ZoneID { request.zoneID(ZoneID.defaultZoneName) }

    /// A mirror of `recordTypes` over `store` (the public store, never the private one), for
    /// the public database `request` names.
    public init(cloud: any CloudService, store: DeviceStore, request: DatabaseRequest, adapter: any ModelAdapter,
                recordTypes: [String], options: SyncOptions = SyncOptions(), clock: @escaping CloudClock = systemClock) {
        precondition(request.scope == .public, "the public mirror works on the public database")
        synchronizer = Synchronizer(cloud: cloud, store: store, request: request, adapter: adapter, options: options,
                                    clock: clock)
        self.recordTypes = Array(Set(recordTypes)).sorted()
    }

    /// Push, pull each type (a full scan when due), push again what the pull merged.
    public func sync(progress: (SyncProgress) -> Void = { _ in }) throws(CloudError) -> SyncReport {
        work = PublicMirrorWork()
        var report = SyncReport()
        let downloadOnly = synchronizer.options.downloadOnly
        try checkEpoch(&report)
        try ensureSubscriptions()
        if !downloadOnly { try synchronizer.push(&report, progress: progress) }
        for type in recordTypes { try pull(type, report: &report, progress: progress) }
        if !downloadOnly, try store.pendingCount(container: container) > report.failures.count {
            try synchronizer.push(&report, progress: progress)
        }
        try dropSettledFailures(&report)
        report.pendingAfter = try store.pendingCount(container: container)
        try store.setSyncState(container: container, "last_sync_ms", String(synchronizer.clock()))
        return report
    }

    /// A refused change that the pull then settled (the merge took the cloud's newer version,
    /// so nothing of it waits any more) is no failure: the report's failures are the changes
    /// that stay pending, and the conflict log marks the refusal resolved.
    func dropSettledFailures(_ report: inout SyncReport) throws(CloudError) {
        for id in report.failures.keys {
            let zone = id.zoneID.zoneName
            guard try !store.isPending(container: container, zone: zone, name: id.recordName) else { continue }
            report.failures[id] = nil
            try store.guarded { try store.settleConflicts(container: container, zone: zone, name: id.recordName) }
        }
    }

    // MARK: Pull

    /// Pulls one type: a full scan when due (first sync of the type, interval passed, forced),
    /// else what changed since the watermark less the overlap margin.
    func pull(_ type: String, report: inout SyncReport, progress: (SyncProgress) -> Void) throws(CloudError) {
        let watermark = try store.syncState(container: container, Self.watermarkPrefix + type).flatMap { Int64($0) }
        let lastScan = try store.syncState(container: container, Self.scanPrefix + type).flatMap { Int64($0) }
        let started = synchronizer.clock()
        let scanDue = forceScan || watermark == nil || lastScan.map { started - $0 >= scanInterval } ?? true
        let sink = StoreSink(synchronizer: synchronizer)
        if scanDue {
            var seen = Set<String>()
            try walk(type, from: nil, pageSize: scanPageSize, sink: sink, report: &report, progress: progress) { seen.insert($0) }
            try removeMissing(type, seen: seen, sink: sink, report: &report)
            try store.setSyncState(container: container, Self.scanPrefix + type, String(started))
            work.scannedTypes.append(type)
        } else {
            try walk(type, from: watermark.map { $0 - Self.overlapMargin }, pageSize: pageSize, sink: sink, report: &report,
                     progress: progress) { _ in }
        }
        report.conflicts += sink.conflicts
    }

    /// Queries `type` from `bound` (nil: every record) in modification order, page by page,
    /// and applies each page with the watermark it reaches. The next page is asked again from
    /// the last page's newest time (records of that time come again and are skipped by change
    /// tag); when a full page holds one time only, the page grows (up to the cloud's largest),
    /// and only past that does the walk follow the cloud's continuation marker.
    func walk(_ type: String, from start: Int64?, pageSize: Int, sink: StoreSink, report: inout SyncReport,
              progress: (SyncProgress) -> Void, seen: (String) -> Void) throws(CloudError) {
        var bound = start
        let basePage = max(1, min(pageSize, CloudLimits.maxPageSize))
        var limit = basePage
        var continuation: String?
        var pulled = 0
        while true {
            let predicate: Predicate = bound.map { .comparison(PredicateKeys.modificationDate, .greaterOrEqual, .timestamp($0)) }
                ?? .truePredicate
            let page = try cloud.queryRecords(RecordQuery(recordType: type, predicate: predicate,
                                                          sort: [SortDescriptor(PredicateKeys.modificationDate)],
                                                          zoneName: ZoneID.defaultZoneName, limit: limit,
                                                          continuation: continuation), in: request)
            work.queries += 1
            work.recordsReturned += page.records.count
            for record in page.records { seen(record.recordID.recordName) }
            let newest = page.records.compactMap { $0.system?.modified.timestamp }.max()
            let applied = try store.applyPublicPage(page.records, deleted: [], zoneID: zoneID, synchronizer.scope,
                                                    watermarkKey: Self.watermarkPrefix + type, watermark: newest, sink: sink)
            work.recordsApplied += applied.changed
            report.pulledChanges += applied.changed
            pulled += applied.changed
            if applied.changed > 0 { progress(.pulling(records: pulled)) }
            guard page.continuation != nil, let last = page.records.last?.system?.modified.timestamp else { return }
            if bound.map({ last > $0 }) ?? true {
                bound = last
                limit = basePage
                continuation = nil
            } else if limit < CloudLimits.maxPageSize {
                limit = min(limit * 4, CloudLimits.maxPageSize)
                continuation = nil
            } else {
                continuation = page.continuation
            }
        }
    }

    /// After a full scan: every cached record of `type` the cloud no longer returned was
    /// deleted there; the local store follows (a pending local edit meets the merge policy, as
    /// a deletion pulled from a private zone does).
    func removeMissing(_ type: String, seen: Set<String>, sink: StoreSink, report: inout SyncReport) throws(CloudError) {
        let gone = try store.cachedRecordNames(ofType: type, in: zoneID, synchronizer.scope).filter { !seen.contains($0) }
        for start in stride(from: 0, to: gone.count, by: 400) {
            let ids = gone[start..<min(start + 400, gone.count)].map { RecordID(recordName: $0, zoneID: zoneID) }
            let applied = try store.applyPublicPage([], deleted: ids, zoneID: zoneID, synchronizer.scope,
                                                    watermarkKey: Self.watermarkPrefix + type, watermark: nil, sink: sink)
            report.pulledDeletions += applied.deleted
            work.deletionsFound += applied.deleted
        }
    }

    // MARK: Subscriptions

    /// Makes the query subscription of each mirrored type once (this device remembers which):
    /// any change to a record of the type notifies the account's other devices.
    func ensureSubscriptions() throws(CloudError) {
        let made = Set(try store.zoneList(container: container, Self.subscriptionsKey))
        let missing = recordTypes.filter { !made.contains($0) }
        guard !missing.isEmpty else { return }
        _ = try cloud.saveSubscriptions(missing.map { type in
            Subscription(subscriptionID: Self.subscriptionPrefix + type,
                         kind: .query(QuerySubscription(recordType: type, zoneName: ZoneID.defaultZoneName, firesOn: .all)))
        }, in: request)
        try store.setZoneList(made.union(missing), container: container, Self.subscriptionsKey)
        work.subscriptionsCreated += missing.count
    }
}

/// What one public-mirror sync asked of the cloud: the figures its cost is judged by.
public struct PublicMirrorWork: Sendable, Hashable {
    /// Query calls made.
    public var queries = 0
    /// Records the queries returned (the overlap and page boundaries return some twice).
    public var recordsReturned = 0
    /// Records whose change tag was new, applied locally.
    public var recordsApplied = 0
    /// Deletions the full scans found.
    public var deletionsFound = 0
    /// Types fully scanned.
    public var scannedTypes: [String] = []
    /// Query subscriptions created.
    public var subscriptionsCreated = 0
    /// Requests made to learn the cloud's store epoch (one per sync).
    public var epochProbes = 0

    public init() {}
}

extension PublicMirror {
    /// Drops this device's pending changes to `names` and takes the cloud's versions (a record
    /// the cloud does not have is removed), in one device transaction: the way out of a change
    /// the cloud keeps refusing, such as an edit of another account's record (77). Returns the
    /// names taken from the cloud and the names removed.
    public func revert(_ names: [String]) throws(CloudError) -> (restored: [String], removed: [String]) {
        let ids = Array(Set(names)).sorted().map { RecordID(recordName: $0, zoneID: zoneID) }
        let answers = try cloud.fetchRecords(ids, in: request)
        var restored: [Record] = []
        var removed: [RecordID] = []
        for id in ids {
            switch answers[id] {
            case .success(let record)?: restored.append(record)
            case .failure(let error)? where error.code != .unknownItem: throw error
            default: removed.append(id)
            }
        }
        let sink = StoreSink(synchronizer: synchronizer)
        _ = try store.applyPublicPage(restored, deleted: removed, zoneID: zoneID, synchronizer.scope, watermarkKey: "",
                                      watermark: nil, sink: sink, discarding: Set(ids.map(\.recordName)))
        return (restored.map(\.recordID.recordName), removed.map(\.recordName))
    }
}
