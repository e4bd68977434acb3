import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto

/// Options of one sync.
public struct SyncOptions: Sendable {
    /// Records per modify call (at most 400).
    public var batchSize = CloudLimits.maxRecordsPerModify
    /// Only pull.
    public var downloadOnly = false
    public var mergePolicy = MergePolicy.fields
    /// Records per pulled page.
    public var pageSize = 2000
    /// Push passes before giving up on records that keep conflicting.
    public var maxRounds = 5

    public init() {}
}

/// The synchronizer, modelled on SyncKit's `CloudKitSynchronizer`: pushes the local store's
/// pending changes (from persistent history) in batches with the cached change tags, resolves
/// `serverRecordChanged` by the merge policy, recovers from a lost zone, splits batches on
/// `limitExceeded`, then pulls with the two-phase fetch and applies what arrived to the local
/// store in the same transaction as the cache and tokens.
public final class Synchronizer {
    public let cloud: any CloudService
    public let store: DeviceStore
    /// The private database of the syncing account, as this device.
    public let request: DatabaseRequest
    public let adapter: any ModelAdapter
    public var options: SyncOptions
    let clock: CloudClock
    /// The versions pushed since the current `sync()` began, which its pull skips.
    var pushed = PushedVersions()

    public init(cloud: any CloudService, store: DeviceStore, request: DatabaseRequest, adapter: any ModelAdapter,
                options: SyncOptions = SyncOptions(), clock: @escaping CloudClock = systemClock) {
        self.cloud = cloud
        self.store = store
        self.request = request
        self.adapter = adapter
        self.options = options
        self.clock = clock
    }

    var container: String { request.container }
    /// The local store's own cache and tokens, apart from the raw cache of `fetch-changes`.
    var scope: CacheScope { CacheScope(container: request.container, scope: request.scope, cursor: .localStore) }

    /// Push, then pull, then push again what the pull merged. A failure leaves the local store
    /// as it was and every unpushed change pending.
    public func sync(progress: (SyncProgress) -> Void = { _ in }) throws(CloudError) -> SyncReport {
        var report = SyncReport()
        pushed = PushedVersions()
        defer { pushed = PushedVersions() }
        if !options.downloadOnly {
            try checkEpochBeforePush(&report)
            try push(&report, progress: progress)
        }
        try pull(&report, progress: progress)
        if !options.downloadOnly, try store.pendingCount(container: container) > report.failures.count {
            try push(&report, progress: progress)
        }
        report.pendingAfter = try store.pendingCount(container: container)
        try store.setSyncState(container: container, "last_sync_ms", String(clock()))
        return report
    }

    // MARK: Push

    /// Before a push, asks the cloud which store epoch it is in (one small database-changes
    /// request, made only when something is pending and this device holds a database token).
    /// Facing a replaced or recreated cloud, the push would otherwise re-create the zones and
    /// upload every record, and the pull would then find the new epoch and mark everything
    /// pending again: each record uploaded twice. Dropping the tokens and base first (local
    /// records kept, marked pending) makes the push upload each record once.
    func checkEpochBeforePush(_ report: inout SyncReport) throws(CloudError) {
        guard let stored = try store.databaseToken(scope), ChangeFetcher.epoch(of: stored, .database) != nil,
              try store.pendingCount(container: container) > 0 else { return }
        let probe = try cloud.fetchDatabaseChanges(since: nil, limit: 1, in: request)
        guard ChangeFetcher.epochsDiffer(stored, probe.token, kind: .database) else { return }
        var fetcher = ChangeFetcher(cloud: cloud, store: store, request: request, pageSize: options.pageSize, clock: clock)
        let sink = StoreSink(synchronizer: self)
        fetcher.sink = sink
        fetcher.cursor = .localStore
        var summary = FetchSummary()
        try fetcher.dropEverything(summary: &summary) { _ in }
        report.epochChanged = true
    }

    /// Pushes every pending change.
    public func push(_ report: inout SyncReport, progress: (SyncProgress) -> Void = { _ in }) throws(CloudError) {
        let total = try store.pendingCount(container: container)
        pushed.expect(total)
        var done = 0
        var failedKeys = Set<String>()
        for _ in 0..<options.maxRounds {
            var cursor: PendingRow?
            var needsAnotherRound = false
            var next: [PendingItem]?
            while true {
                let batch: [PendingItem]
                if let next { batch = next } else { batch = try pendingItems(after: cursor) }
                guard let last = batch.last?.row else { break }
                cursor = last
                let outcome = try pushBatch(batch, report: &report)
                next = outcome.next
                needsAnotherRound = needsAnotherRound || outcome.retry
                for key in outcome.failed { failedKeys.insert(key) }
                done += batch.count
                progress(.pushing(done: min(done, max(total, done)), total: max(total, done)))
            }
            if !needsAnotherRound { break }
        }
        // What is still pending and was not reported failed kept conflicting: report it.
        var cursor: PendingRow?
        while true {
            let rest = try store.pendingBatch(container: container, after: cursor, limit: 400)
            guard let last = rest.last else { break }
            cursor = last
            for row in rest {
                let id = request.zoneID(row.zoneName)
                let recordID = RecordID(recordName: row.recordName, zoneID: id)
                if report.failures[recordID] == nil, !failedKeys.contains(row.zoneName + "/" + row.recordName) {
                    report.failures[recordID] = CloudError(.serverRecordChanged,
                                                           "record '\(row.recordName)' kept changing in the cloud; it stays pending",
                                                           recordID: recordID)
                }
            }
        }
    }

    /// The next batch of pending records after `cursor` (nil: from the first).
    func pendingItems(after cursor: PendingRow?) throws(CloudError) -> [PendingItem] {
        try store.pendingItems(container: container, scope: scope, owner: request.zoneOwner, after: cursor,
                               limit: max(1, min(options.batchSize, 400)))
    }

    // MARK: Zones

    /// Creates the zones pending records live in, once: the device remembers what it created
    /// (seed 001: do not re-issue these requests on every run). A zone other than the default
    /// one is looked up first (one call, only the first time this device pushes to it): one the
    /// cloud already had (`zone create`, another device) is used, not claimed; one this sync
    /// made becomes the store's own, which `sync off --delete-cloud-data` may delete.
    ///
    /// Returns the zones this device had pulled from the cloud (it holds their token or records)
    /// and that the cloud no longer had: deleted elsewhere while edits of them waited here. The
    /// caller re-creates them as zones the cloud lost (`recreateZone`), which names them.
    func ensureZones(_ zones: Set<String>) throws(CloudError) -> [String] {
        let known = Set(try store.zoneList(container: container, DeviceStore.zonesCreatedKey))
        let missing = zones.subtracting(known).sorted()
        guard !missing.isEmpty else { return [] }
        var existing = Set<String>()
        var lost: [String] = []
        if missing.contains(where: { $0 != adapter.zoneName }) {
            existing = Set(try cloud.fetchAllZones(in: request).map(\.zoneID.zoneName))
            let pulled = Set(try store.cachedZones(scope).filter { $0 == request.zoneID($0.zoneName) }.map(\.zoneName))
            lost = missing.filter { $0 != adapter.zoneName && !existing.contains($0) && pulled.contains($0) }
        }
        _ = try cloud.saveZones(missing.map { ZoneSpec(name: $0, atomic: false) }, in: request)
        try store.addStoreZones(missing.filter { $0 != adapter.zoneName && !existing.contains($0) }, container: container)
        try store.setZoneList(known.union(missing), container: container, DeviceStore.zonesCreatedKey)
        return lost
    }

    /// The zones the local store owns in the cloud: its default zone and the zones its syncs
    /// made (see `ensureZones`).
    public func ownedZones() throws(CloudError) -> [String] {
        Set([adapter.zoneName] + (try store.zoneList(container: container, DeviceStore.storeZonesKey))).sorted()
    }

    /// Re-creates a zone the cloud lost and marks every local record of it pending.
    func recreateZone(_ zone: String, report: inout SyncReport) throws(CloudError) {
        _ = try cloud.saveZones([ZoneSpec(name: zone, atomic: false)], in: request)
        if zone != adapter.zoneName { try store.addStoreZones([zone], container: container) }
        let zoneID = request.zoneID(zone)
        let device = request.deviceID
        let now = clock()
        try store.dropZone(zoneID, scope)
        pushed.forget(zone: zone)
        try store.transaction { _ = try store.markZonePending(container: container, zone: zone, device: device, now: now) }
        if !report.recreatedZones.contains(zone) { report.recreatedZones.append(zone) }
    }

    // MARK: Conflicts

    /// Resolves a record changed on both sides: merges in cloud form, writes the merged local
    /// record, caches the cloud version as the new base. Runs inside a device transaction.
    func resolve(local: LocalRecord?, ancestor: Record?, server: Record, policy: MergePolicy,
                 now: Int64) throws -> SyncConflict? {
        // Merge in the local model's terms (decrypted), with BYTES compared by checksum: a
        // ciphertext's random nonce would make every encrypted field look changed.
        var localBlobs: [String: [UInt8]] = [:]
        let localCloud = try local.map { try AssetCoding.assetizeForComparison($0.fields, recordType: $0.recordType,
                                                                               adapter: adapter, blobs: &localBlobs) }
        // The edit times decide "newer" (see EditTime); the field itself is not the model's.
        let (serverRecord, serverEdited) = EditTime.split(server)
        let serverFields = try adapter.incomingFields(serverRecord)
        let ancestorFields = try ancestor.map { try adapter.incomingFields(EditTime.split($0).record) }
        let localSide = MergeSide(fields: localCloud, modified: local?.modified ?? now)
        let serverSide = MergeSide(fields: serverFields, modified: serverEdited ?? 0)
        let outcome = adapter.resolveConflict(recordType: server.recordType, local: localSide, server: serverSide,
                                              ancestor: ancestorFields, policy: policy)
            ?? RecordMerger.merge(local: localSide, server: serverSide, ancestor: ancestorFields, policy: policy)
        try store.upsertCache(server, scope)
        let zone = server.recordID.zoneID.zoneName
        let name = server.recordID.recordName
        let settled = outcome.fields == serverFields
        if let merged = outcome.fields {
            var mergedRecord = serverRecord
            mergedRecord.fields = merged
            let localFields = try AssetCoding.resolve(mergedRecord, known: localBlobs, cloud: cloud, request: request).fields
            // The result is as new as the newest edit it keeps.
            let edited = settled ? serverSide.modified : max(localSide.modified, serverSide.modified)
            let record = LocalRecord(zoneName: zone, recordName: name, recordType: local?.recordType ?? server.recordType,
                                     fields: localFields, modified: edited)
            try store.writeLocalFromSync(record, container: container, device: request.deviceID, existed: local != nil, now: now)
        } else {
            try store.deleteLocalFromSync(container: container, zone: zone, name: name, type: server.recordType,
                                          device: request.deviceID, now: now)
        }
        if settled { try store.clearPending(container: container, zone: zone, name: name, ifTxn: nil) }
        let localChanged = localCloud != ancestorFields
        let serverChanged = serverFields != (ancestorFields ?? [:])
        guard localChanged && serverChanged && localCloud != serverFields else { return nil }
        let conflict = SyncConflict(zoneName: zone, recordName: name, policy: policy, resolution: outcome.resolution,
                                    contestedKeys: outcome.contestedKeys)
        try store.logConflict(container: container, zone: zone, name: name, policy: policy.rawValue, resolution: outcome.resolution,
                              detail: .object([("local", localCloud.map(RecordJSON.encode(fields:)) ?? .null),
                                               ("cloud", RecordJSON.encode(fields: serverFields)),
                                               ("result", outcome.fields.map(RecordJSON.encode(fields:)) ?? .null),
                                               ("contested", .array(outcome.contestedKeys.map { .string($0) }))]),
                              resolved: true, now: now)
        return conflict
    }

    /// A record edited here was deleted in the cloud.
    func resolveRemoteDeletion(_ local: LocalRecord, ancestor: Record?, policy: MergePolicy,
                               now: Int64) throws -> SyncConflict {
        let recordID = RecordID(recordName: local.recordName, zoneID: request.zoneID(local.zoneName))
        let outcome = RecordMerger.merge(local: MergeSide(fields: local.fields, modified: local.modified),
                                         server: MergeSide(fields: nil, modified: 0),
                                         ancestor: ancestor.map { EditTime.split($0).record.fields }, policy: policy)
        try store.deleteCache(recordID, scope)
        if outcome.fields == nil {
            try store.deleteLocalFromSync(container: container, zone: local.zoneName, name: local.recordName,
                                          type: local.recordType, device: request.deviceID, now: now)
            try store.clearPending(container: container, zone: local.zoneName, name: local.recordName, ifTxn: nil)
        }
        try store.logConflict(container: container, zone: local.zoneName, name: local.recordName, policy: policy.rawValue,
                              resolution: outcome.resolution,
                              detail: .object([("local", RecordJSON.encode(fields: local.fields)), ("cloud", .null)]),
                              resolved: true, now: now)
        return SyncConflict(zoneName: local.zoneName, recordName: local.recordName, policy: policy,
                            resolution: outcome.resolution, contestedKeys: [])
    }

    // MARK: Pull

    /// Pulls what changed and applies it to the local store.
    public func pull(_ report: inout SyncReport, progress: (SyncProgress) -> Void = { _ in }) throws(CloudError) {
        let sink = StoreSink(synchronizer: self)
        var fetcher = ChangeFetcher(cloud: cloud, store: store, request: request, pageSize: options.pageSize, clock: clock)
        fetcher.sink = sink
        fetcher.cursor = .localStore
        fetcher.pushed = pushed
        var pulled = 0
        let summary = try fetcher.fetch { event in
            if case .pageApplied(_, let changed, let deleted, _) = event {
                pulled += changed + deleted
                progress(.pulling(records: pulled))
            }
        }
        report.epochChanged = report.epochChanged || summary.epochChanged
        report.pulledChanges += summary.changedRecords
        report.pulledDeletions += summary.deletedRecords
        report.ownPushedRecords += summary.ownPushedRecords
        report.conflicts += sink.conflicts
        for zone in sink.lostZones where !report.recreatedZones.contains(zone) { report.recreatedZones.append(zone) }
        for zone in sink.droppedZones where !report.droppedZones.contains(zone) { report.droppedZones.append(zone) }
    }
}
