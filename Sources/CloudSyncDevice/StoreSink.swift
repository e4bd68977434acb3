import CloudSyncService
import CloudSyncCore

/// Applies pulled pages to the local store inside the device transaction that stores them:
/// records without local changes take the cloud's version; records with pending local changes
/// are merged by the merge policy (the cloud version becomes the new base and the merge result
/// stays pending); zones the cloud lost keep their local records, marked for re-upload.
final class StoreSink: LocalSink {
    let synchronizer: Synchronizer
    var conflicts: [SyncConflict] = []
    var lostZones: [String] = []
    /// Zones deleted on purpose elsewhere and dropped here too.
    var droppedZones: [String] = []

    init(synchronizer: Synchronizer) { self.synchronizer = synchronizer }

    func apply(_ page: CachePage, ancestors: [RecordID: Record], in store: DeviceStore) throws {
        let s = synchronizer
        let container = s.container
        let device = s.request.deviceID
        let now = s.clock()
        // One probe per page: with nothing pending in the zone (the usual pull) no record needs
        // a merge, so none needs the per-record pending lookup.
        let hasPending = try store.hasPending(container: container, zone: page.zoneID.zoneName)
        // What the page changed without a conflict: one history transaction for the whole page
        // (as Core Data records one per import save), not one per record.
        var history: [HistoryChange] = []
        for (index, record) in page.changed.enumerated() where s.adapter.handles(recordType: record.recordType) {
            try EncryptionMarks.learn(from: record, store: store, container: container)
            let zone = record.recordID.zoneID.zoneName
            let name = record.recordID.recordName
            if hasPending, try store.pendingRow(container: container, zone: zone, name: name) != nil {
                let existing = try store.localRecordInTransaction(container: container, zone: zone, name: name)
                if let conflict = try s.resolve(local: existing, ancestor: ancestors[record.recordID], server: record,
                                                policy: s.options.mergePolicy, now: now) {
                    conflicts.append(conflict)
                }
                continue
            }
            let (incoming, edited) = EditTime.split(record)
            let resolved = try AssetCoding.resolve(incoming, known: [:], cloud: s.cloud, request: s.request)
            let fields = try s.adapter.incomingFields(resolved)
            let local = LocalRecord(zoneName: zone, recordName: name, recordType: record.recordType, fields: fields,
                                    modified: edited ?? now)
            // A record new to this device (every record of a first pull) is inserted in one
            // statement; an existing one is read, and rewritten only if it differs.
            // Fields the adapter and assets left as they are can reuse the cache's JSON.
            var json: String?
            if fields == incoming.fields, index < page.encodedFields.count, let encoded = page.encodedFields[index] {
                json = incoming.fields.count == record.fields.count ? encoded
                    : edited.flatMap { EditTime.removing($0, fromJSON: encoded) }
            }
            var kind = ChangeKind.insert
            if try !store.insertLocalIfAbsent(local, container: container, fieldsJSON: json) {
                let existing = try store.localRecordInTransaction(container: container, zone: zone, name: name)
                if let existing, existing.fields == fields, existing.recordType == record.recordType { continue }
                try store.writeLocal(local, container: container, fieldsJSON: json)
                kind = existing == nil ? .insert : .update
            }
            history.append(HistoryChange(zoneName: zone, recordName: name, recordType: record.recordType,
                                         kind: kind, changedKeys: fields.keys.sorted()))
        }
        for id in page.deleted {
            let zone = id.zoneID.zoneName
            guard let existing = try store.localRecordInTransaction(container: container, zone: zone, name: id.recordName),
                  s.adapter.handles(recordType: existing.recordType) else { continue }
            if try store.pendingRow(container: container, zone: zone, name: id.recordName) != nil {
                conflicts.append(try s.resolveRemoteDeletion(existing, ancestor: ancestors[id], policy: s.options.mergePolicy,
                                                             now: now))
                continue
            }
            if try store.deleteLocalRow(container: container, zone: zone, name: id.recordName) {
                history.append(HistoryChange(zoneName: zone, recordName: id.recordName, recordType: existing.recordType,
                                             kind: .delete, changedKeys: []))
            }
        }
        if !history.isEmpty {
            _ = try store.recordHistory(container: container, changes: history, device: device,
                                        author: LocalStoreDefaults.syncAuthor, now: now, markPending: false)
        }
    }

    func zoneDropped(_ zoneID: ZoneID, reason: ZoneDeletionReason?, in store: DeviceStore) throws {
        guard reason != nil else { return }
        if reason == .unshared || synchronizer.request.scope == .shared {
            // A shared zone taken from this participant: its records were never theirs to keep.
            try store.dropUnsharedZone(container: synchronizer.container, zone: zoneID.zoneName,
                                       device: synchronizer.request.deviceID, now: synchronizer.clock())
            return
        }
        // A zone deleted on purpose (`zone delete`, another device of the account) is dropped
        // here too, so the delete sticks; unless this device holds unpushed edits of it: then it
        // is re-created below, as a zone the cloud lost (the report names it).
        // (An edit this sync already pushed re-created the zone: that counts as unpushed here.)
        if reason == .deleted, synchronizer.pushed.count(zone: zoneID.zoneName) == 0,
           try store.pendingCount(container: synchronizer.container, zone: zoneID.zoneName) == 0 {
            try store.dropUnsharedZone(container: synchronizer.container, zone: zoneID.zoneName,
                                       device: synchronizer.request.deviceID, now: synchronizer.clock())
            try store.forgetCreatedZone(zoneID.zoneName, container: synchronizer.container)
            droppedZones.append(zoneID.zoneName)
            return
        }
        // The cloud lost the zone (a purge, or deleted with edits pending here): keep every local
        // record and upload them again.
        let marked = try store.markZonePending(container: synchronizer.container, zone: zoneID.zoneName,
                                               device: synchronizer.request.deviceID, now: synchronizer.clock())
        if marked > 0 {
            lostZones.append(zoneID.zoneName)
            try store.forgetCreatedZone(zoneID.zoneName, container: synchronizer.container)
        }
    }
}
