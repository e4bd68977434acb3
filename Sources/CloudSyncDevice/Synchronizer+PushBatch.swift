import CloudSyncService
import CloudSyncCore

extension Synchronizer {
    /// What one pushed batch asks of the push loop.
    struct BatchOutcome {
        var retry = false
        var failed: [String] = []
        /// The batch after this one, read while the cloud stored this one.
        var next: [PendingItem]?
    }

    /// Pushes one batch of pending records: creates their zones, uploads their assets, sends
    /// the saves and deletions in one modify call (split on `limitExceeded`) while the next
    /// batch is read, applies the cloud's answers to the device in one transaction, and
    /// re-creates the zones the cloud lost.
    func pushBatch(_ pending: [PendingItem], report: inout SyncReport) throws(CloudError) -> BatchOutcome {
        var outcome = BatchOutcome()
        let lost = try ensureZones(Set(pending.map(\.row.zoneName)))
        if !lost.isEmpty {
            // Zones deleted elsewhere that this device had pulled and holds unpushed edits of: as
            // a pull would, keep every local record of them, upload them again, and name them.
            // The batch read before holds the zones' dropped cache: the next round reads it again.
            for zone in lost { try recreateZone(zone, report: &report) }
            outcome.retry = true
            return outcome
        }
        let batch = try prepare(pending)
        try uploadBlobs(batch.blobs)
        let (result, next) = try modifyReadingNext(batch, after: pending.last?.row)
        outcome.next = next
        let cachedVersions = try settle(batch, result, report: &report, outcome: &outcome)
        for record in cachedVersions { pushed.note(record) }
        try recreateLostZones(result.errors, report: &report)
        if let next = outcome.next, nextBatchIsStale(next, after: batch, result: result) { outcome.next = nil }
        return outcome
    }

    /// Prepares the outgoing cloud records of a batch (assets collected for upload) from the
    /// local state and the cached tags.
    func prepare(_ pending: [PendingItem]) throws(CloudError) -> OutgoingBatch {
        var batch = OutgoingBatch(capacity: pending.count)
        for p in pending {
            let recordID = RecordID(recordName: p.row.recordName, zoneID: request.zoneID(p.row.zoneName))
            var item = OutgoingRecord(row: p.row, recordID: recordID, local: p.local, cached: p.cached, record: nil)
            if let local = p.local, adapter.handles(recordType: local.recordType) {
                let fields = try AssetCoding.assetize(adapter.outgoingFields(local), recordType: local.recordType,
                                                      adapter: adapter, collect: &batch.blobs)
                item.record = Record(recordID: recordID, recordType: local.recordType,
                                     fields: EditTime.adding(local.modified, to: fields), system: p.cached?.system)
                if fields == local.fields { item.fieldsJSON = p.localJSON.map { EditTime.adding(local.modified, toJSON: $0) } }
            }
            batch.append(item)
        }
        return batch
    }

    /// Uploads asset blobs, 100 per call.
    func uploadBlobs(_ blobs: [[UInt8]]) throws(CloudError) {
        for start in stride(from: 0, to: blobs.count, by: 100) {
            _ = try cloud.uploadAssets(Array(blobs[start..<min(start + 100, blobs.count)]), in: request)
        }
    }

    /// Sends the batch's saves and deletions, and returns the cloud's answer with the batch
    /// pending after `cursor`. While the cloud stores this batch, the next one is read from the
    /// device file on another thread: the two files, two connections, and this thread does not
    /// touch the device until the join. The early read is dropped (and done again) when this
    /// batch's transaction may have made its cached versions stale (`nextBatchIsStale`).
    func modifyReadingNext(_ batch: OutgoingBatch,
                           after cursor: PendingRow?) throws(CloudError) -> (ModifyResult, [PendingItem]) {
        let saves = batch.saves
        let deletes = batch.deletes
        let encoded = batch.encodedFields
        let nextBatch = BackgroundJob { () throws(CloudError) -> [PendingItem] in try self.pendingItems(after: cursor) }
        let result: ModifyResult
        do {
            result = saves.isEmpty && deletes.isEmpty
                ? ModifyResult() : try modifySplitting(saves: saves, deletes: deletes, encodedFields: encoded)
        } catch {
            _ = try? nextBatch.join()
            throw error
        }
        return (result, try nextBatch.join())
    }

    /// Applies the cloud's answers to the device in one transaction: pending marks cleared, the
    /// saved versions cached as the new base, the deleted ones uncached, each refusal handled
    /// by its code. Returns the versions cached.
    func settle(_ batch: OutgoingBatch, _ result: ModifyResult, report: inout SyncReport,
                outcome: inout BatchOutcome) throws(CloudError) -> [Record] {
        let now = clock()
        let policy = options.mergePolicy
        let neverUploaded = batch.neverUploaded
        // When every record of the batch went through, its pending marks go in one range delete
        // (a record changed meanwhile has a newer transaction, outside the range, and stays
        // pending); otherwise record by record, as each answer says.
        let wholeBatch = result.errors.isEmpty
            && result.saved.count + result.deleted.count + neverUploaded.count == batch.items.count
        var cachedVersions: [Record] = []
        try store.transaction {
            let unsettled = try store.unresolvedConflictRecords(container: container)
            if wholeBatch, let first = batch.items.first?.row, let last = batch.items.last?.row {
                try store.clearPending(container: container, from: first, through: last)
            }
            for item in neverUploaded { try clearPending(item.row, unlessWhole: wholeBatch) }
            cachedVersions = try cacheSaved(result.saved, of: batch, unsettled: unsettled, wholeBatch: wholeBatch,
                                            report: &report)
            try uncacheDeleted(result.deleted, of: batch, wholeBatch: wholeBatch, report: &report)
            for (id, error) in result.errors {
                guard let item = batch.item(id) else { continue }
                try handleRefusal(error, of: id, item: item, policy: policy, now: now, report: &report, outcome: &outcome)
            }
        }
        return cachedVersions
    }

    /// Clears one record's pending mark, unless the whole batch's went in one range delete.
    func clearPending(_ row: PendingRow, unlessWhole wholeBatch: Bool) throws {
        guard !wholeBatch else { return }
        try store.clearPending(container: container, zone: row.zoneName, name: row.recordName, ifTxn: row.txnID)
    }

    /// Caches the saved versions as the new base and settles their conflicts. Per saved record:
    /// no copy of its batch item (records and all), no lookups that cannot find anything (no
    /// unsettled conflicts, the pending marks cleared as a range). Runs inside the transaction.
    func cacheSaved(_ saved: [Record], of batch: OutgoingBatch, unsettled: Set<LocalRecordKey>, wholeBatch: Bool,
                    report: inout SyncReport) throws -> [Record] {
        var cached: [Record] = [], cachedJSON: [String?] = []
        cached.reserveCapacity(saved.count)
        cachedJSON.reserveCapacity(saved.count)
        for record in saved {
            guard let i = batch.position(of: record.recordID) else { continue }
            cached.append(record)
            let json = batch.items[i].fieldsJSON
            cachedJSON.append(json != nil && record.fields == batch.items[i].record?.fields ? json : nil)
            let row = batch.items[i].row
            try clearPending(row, unlessWhole: wholeBatch)
            if !unsettled.isEmpty, unsettled.contains(LocalRecordKey(zoneName: row.zoneName, recordName: row.recordName)) {
                try store.settleConflicts(container: container, zone: row.zoneName, name: row.recordName)
            }
            report.savedRecords += 1
        }
        try store.upsertCache(cached, scope, fieldsJSON: cachedJSON)
        return cached
    }

    /// Drops the deleted records from the cache. Runs inside the transaction.
    func uncacheDeleted(_ deleted: [RecordID], of batch: OutgoingBatch, wholeBatch: Bool,
                        report: inout SyncReport) throws {
        for id in deleted {
            guard let item = batch.item(id) else { continue }
            try store.deleteCache(id, scope)
            try clearPending(item.row, unlessWhole: wholeBatch)
            report.deletedRecords += 1
        }
    }

    /// Handles the cloud's refusal of one record of the batch: a conflict is merged (and the
    /// record pushed again next round), a lost zone retried, anything else reported failed and
    /// logged. Runs inside the transaction.
    func handleRefusal(_ error: CloudError, of id: RecordID, item: OutgoingRecord, policy: MergePolicy, now: Int64,
                       report: inout SyncReport, outcome: inout BatchOutcome) throws {
        switch error.code {
        case .serverRecordChanged:
            guard let server = error.serverRecord else {
                report.failures[id] = error
                outcome.failed.append(item.path)
                return
            }
            let conflict = try resolve(local: item.local, ancestor: item.cached, server: server, policy: policy, now: now)
            if let conflict { report.conflicts.append(conflict) }
            outcome.retry = true
        case .unknownItem where item.local != nil:
            // The record was deleted in the cloud while edited here.
            let conflict = try resolveRemoteDeletion(item.local!, ancestor: item.cached, policy: policy, now: now)
            report.conflicts.append(conflict)
            outcome.retry = true
        case .unknownItem:
            try store.deleteCache(id, scope)
            try store.clearPending(container: container, zone: item.row.zoneName, name: item.row.recordName, ifTxn: item.row.txnID)
        case .zoneNotFound, .userDeletedZone:
            outcome.retry = true
        case .batchRequestFailed:
            outcome.retry = true
        default:
            report.failures[id] = error
            outcome.failed.append(item.path)
            try store.logConflict(container: container, zone: item.row.zoneName, name: item.row.recordName,
                                  policy: policy.rawValue, resolution: "not pushed: \(error.reason)",
                                  detail: .object([("error", .string(error.code.rawValue))]), resolved: false, now: now)
        }
    }

    /// Zones the cloud lost (as its refusals say): re-create them and re-upload everything they held.
    func recreateLostZones(_ errors: [RecordID: CloudError], report: inout SyncReport) throws(CloudError) {
        let lostZones = Set(errors.filter { $0.value.code == .zoneNotFound || $0.value.code == .userDeletedZone }
            .map(\.key.zoneID.zoneName))
        for zone in lostZones.sorted() {
            try recreateZone(zone, report: &report)
        }
    }

    /// Whether the batch read early must be read again. It holds each record's cached cloud
    /// version as it was before this batch's transaction. That is stale when this batch changed
    /// the cache beyond its saves (an error: a conflict resolved, a zone recreated and its cache
    /// dropped), or when a record of this batch was edited again meanwhile and so is in the next
    /// batch too (its cache row is the version just saved): then the next batch is read again,
    /// as the serial loop did.
    func nextBatchIsStale(_ next: [PendingItem], after batch: OutgoingBatch, result: ModifyResult) -> Bool {
        !result.errors.isEmpty || next.contains { batch.contains($0.row) }
    }

    /// A modify call that splits itself in halves on `limitExceeded` until it fits.
    func modifySplitting(saves: [Record], deletes: [RecordID], encodedFields: [RecordID: String] = [:]) throws(CloudError) -> ModifyResult {
        do {
            return try cloud.modifyRecords(ModifyRequest(saves: saves, deletes: deletes, policy: .ifServerRecordUnchanged,
                                                         encodedFields: encodedFields), in: request)
        } catch where error.code == .limitExceeded && saves.count + deletes.count > 1 {
            let half = (saves.count + deletes.count) / 2
            let firstSaves = Array(saves.prefix(half))
            let firstDeletes = Array(deletes.prefix(max(0, half - saves.count)))
            let first = try modifySplitting(saves: firstSaves, deletes: firstDeletes, encodedFields: encodedFields)
            let second = try modifySplitting(saves: Array(saves.dropFirst(firstSaves.count)),
                                             deletes: Array(deletes.dropFirst(firstDeletes.count)), encodedFields: encodedFields)
            return ModifyResult(saved: first.saved + second.saved, deleted: first.deleted + second.deleted,
                                errors: first.errors.merging(second.errors) { a, _ in a })
        }
    }
}
