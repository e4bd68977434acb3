import CloudSyncService
import CloudSyncCore
import CloudSyncSQLite

/// A record with local changes not yet in the cloud.
public struct PendingRow: Sendable, Hashable {
    public var zoneName: String
    public var recordName: String
    /// The history transaction of the latest local change.
    public var txnID: Int64
}

/// A pending record with what a push needs.
struct PendingItem {
    var row: PendingRow
    var local: LocalRecord?
    var cached: Record?
    /// The local fields as stored (JSON text), to cache them without encoding them again.
    var localJSON: String?
}

/// A record of the local store by zone and name (its container is the store's).
struct LocalRecordKey: Hashable {
    var zoneName: String
    var recordName: String
}

/// A conflict as the conflict log keeps it.
public struct ConflictEntry: Sendable, Hashable {
    public var id: Int64
    public var time: Int64
    public var zoneName: String
    public var recordName: String
    public var policy: String
    public var resolution: String
    /// JSON text: the local, cloud and resulting fields.
    public var detail: String
    /// False when the conflict could not be resolved and the local change is still waiting.
    public var resolved: Bool
}

/// Receives pulled changes inside the device transaction that stores them, so the local
/// model, the cache and the tokens move together.
public protocol LocalSink {
    /// Applies a page before the cache is updated; `ancestors` are the cached versions the page
    /// replaces of the records that have pending local changes (the ones a merge needs).
    func apply(_ page: CachePage, ancestors: [RecordID: Record], in store: DeviceStore) throws
    /// A zone went away in the cloud (or its token expired); its cache is being dropped.
    func zoneDropped(_ zoneID: ZoneID, reason: ZoneDeletionReason?, in store: DeviceStore) throws
}

extension DeviceStore {
    /// Runs `body` in one write transaction of the device file.
    public func transaction<T>(_ body: () throws -> T) throws(CloudError) -> T {
        try guarded { try connection.transaction(.immediate, body) }
    }

    /// Pending records after `cursor` in (txn, zone, name) order, at most `limit`.
    public func pendingBatch(container: String, after cursor: PendingRow?, limit: Int) throws(CloudError) -> [PendingRow] {
        try guarded {
            let c = cursor ?? PendingRow(zoneName: "", recordName: "", txnID: -1)
            return try connection.query("""
                SELECT zone_name, record_name, txn_id FROM pending
                WHERE container=? AND (txn_id>? OR (txn_id=? AND (zone_name>? OR (zone_name=? AND record_name>?))))
                ORDER BY txn_id, zone_name, record_name LIMIT ?
                """, [container, c.txnID, c.txnID, c.zoneName, c.zoneName, c.recordName, limit]) {
                PendingRow(zoneName: $0.string(0), recordName: $0.string(1), txnID: $0.int64(2))
            }
        }
    }

    /// Pending records after `cursor`, in the order of `pendingBatch`, each with its local
    /// version and its cached cloud version, in one query (a push needs all three; two lookups
    /// per record cost more than the push's own writes).
    func pendingItems(container: String, scope: CacheScope, owner: String, after cursor: PendingRow?,
                      limit: Int) throws(CloudError) -> [PendingItem] {
        try guarded {
            let c = cursor ?? PendingRow(zoneName: "", recordName: "", txnID: -1)
            return try connection.query("""
                SELECT p.zone_name, p.record_name, p.txn_id, l.record_type, l.fields, l.modified_ms,
                    c.record_name, c.record_type, c.change_tag, c.fields, c.created_ms, c.created_user, c.created_device,
                    c.modified_ms, c.modified_user, c.modified_device
                FROM pending p
                LEFT JOIN local_records l
                    ON l.container=p.container AND l.zone_name=p.zone_name AND l.record_name=p.record_name
                LEFT JOIN cached_records c
                    ON c.container=p.container AND c.scope=? AND c.zone_name=p.zone_name AND c.owner=?
                    AND c.record_name=p.record_name
                WHERE p.container=? AND (p.txn_id>? OR (p.txn_id=? AND (p.zone_name>? OR (p.zone_name=? AND p.record_name>?))))
                ORDER BY p.txn_id, p.zone_name, p.record_name LIMIT ?
                """, [scope.column, owner, container, c.txnID, c.txnID, c.zoneName, c.zoneName, c.recordName, limit]) { row in
                let pending = PendingRow(zoneName: row.string(0), recordName: row.string(1), txnID: row.int64(2))
                var item = PendingItem(row: pending, local: nil, cached: nil)
                if !row.isNull(3) {
                    item.local = LocalRecord(zoneName: pending.zoneName, recordName: pending.recordName, recordType: row.string(3),
                                             fields: try DeviceStore.decodeFields(row, 4), modified: row.int64(5))
                    item.localJSON = row.string(4)
                }
                if !row.isNull(6) {
                    item.cached = try DeviceStore.decodeCached(row, zoneID: ZoneID(zoneName: pending.zoneName, ownerRecordName: owner),
                                                               from: 6)
                }
                return item
            }
        }
    }

    /// Whether any record of `zone` has unpushed changes (one index probe: lets a pulled page
    /// skip the per-record pending lookup when nothing is pending).
    public func hasPending(container: String, zone: String) throws -> Bool {
        try connection.scalarInt("SELECT EXISTS(SELECT 1 FROM pending WHERE container=? AND zone_name=?)",
                                 [container, zone]) == 1
    }

    /// The pending row of a record, if it has unpushed changes.
    public func pendingRow(container: String, zone: String, name: String) throws -> PendingRow? {
        try connection.queryOne("SELECT txn_id FROM pending WHERE container=? AND zone_name=? AND record_name=?",
                                [container, zone, name]) { PendingRow(zoneName: zone, recordName: name, txnID: $0.int64(0)) }
    }

    /// Clears a pending mark if no newer local change came in since `txnID` (nil: always).
    public func clearPending(container: String, zone: String, name: String, ifTxn txnID: Int64?) throws {
        if let txnID {
            try connection.run("DELETE FROM pending WHERE container=? AND zone_name=? AND record_name=? AND txn_id=?",
                               container, zone, name, txnID)
        } else {
            try connection.run("DELETE FROM pending WHERE container=? AND zone_name=? AND record_name=?", container, zone, name)
        }
    }

    /// Clears the pending marks from `first` through `last` in (txn, zone, name) order (the
    /// order of `pendingBatch`) in one statement, for a pushed batch that all went through: a
    /// record changed since its batch was read has a newer transaction, so it is outside the
    /// range and stays pending.
    func clearPending(container: String, from first: PendingRow, through last: PendingRow) throws {
        try connection.run("""
            DELETE FROM pending WHERE container=? AND (txn_id, zone_name, record_name) >= (?, ?, ?)
                AND (txn_id, zone_name, record_name) <= (?, ?, ?)
            """, container, first.txnID, first.zoneName, first.recordName, last.txnID, last.zoneName, last.recordName)
    }

    /// The sync-state key of the zones this device created (shared by the synchronizer and
    /// `subscribe init`), one name per line.
    public static let zonesCreatedKey = "zones_created"

    /// Forgets that this device created `zone` (the cloud lost it), so that the synchronizer
    /// and `subscribe init` create it again instead of trusting their record. The zone is no
    /// longer the store's own either: whoever creates it next owns it.
    public func forgetCreatedZone(_ zone: String, container: String) throws(CloudError) {
        for key in [DeviceStore.zonesCreatedKey, DeviceStore.storeZonesKey] {
            var known = try zoneList(container: container, key)
            guard known.contains(zone) else { continue }
            known.removeAll { $0 == zone }
            try setZoneList(known, container: container, key)
        }
    }

    /// The sync-state key of the zones the local store made in the cloud (besides its default
    /// zone, which is always its own), one name per line: the zones a sync created because the
    /// cloud did not have them, or re-created after the cloud lost them. Only these (and the
    /// default zone) are deleted by `sync off --delete-cloud-data`; a zone made otherwise
    /// (`zone create`, another device's store, `subscribe init`) is never the store's to delete.
    public static let storeZonesKey = "store_zones"

    /// A one-name-per-line sync-state list.
    public func zoneList(container: String, _ key: String) throws(CloudError) -> [String] {
        (try syncState(container: container, key) ?? "").split(separator: "\n").map(String.init)
    }

    /// Stores a one-name-per-line sync-state list (sorted, without repeats; none clears it).
    public func setZoneList(_ zones: some Sequence<String>, container: String, _ key: String) throws(CloudError) {
        let names = Set(zones).sorted()
        try setSyncState(container: container, key, names.isEmpty ? nil : names.joined(separator: "\n"))
    }

    /// Records that the local store made `zones` in the cloud.
    public func addStoreZones(_ zones: [String], container: String) throws(CloudError) {
        guard !zones.isEmpty else { return }
        try setZoneList(try zoneList(container: container, DeviceStore.storeZonesKey) + zones, container: container,
                        DeviceStore.storeZonesKey)
    }

    /// Marks every local record of a zone pending (to re-upload a zone the cloud lost).
    /// Returns how many records were marked.
    @discardableResult
    public func markZonePending(container: String, zone: String, device: String, now: Int64) throws -> Int {
        let names = try localRecordNames(container: container, zone: zone)
        guard !names.isEmpty else { return 0 }
        try connection.run("INSERT INTO history(container, time_ms, device, author) VALUES (?, ?, ?, ?)",
                           container, now, device, "recovery")
        let txn = connection.lastInsertRowID
        let insert = try connection.prepare("INSERT OR REPLACE INTO pending(container, zone_name, record_name, txn_id) VALUES (?, ?, ?, ?)")
        for name in names { try insert.run([container, zone, name, txn]) }
        return names.count
    }

    /// Writes a local record (inside a caller's transaction) and records it in history under
    /// `author` without marking it pending.
    public func writeLocalFromSync(_ record: LocalRecord, container: String, device: String, existed: Bool, now: Int64) throws {
        try writeLocal(record, container: container)
        _ = try recordHistory(container: container,
                              changes: [HistoryChange(zoneName: record.zoneName, recordName: record.recordName,
                                                      recordType: record.recordType, kind: existed ? .update : .insert,
                                                      changedKeys: record.fields.keys.sorted())],
                              device: device, author: LocalStoreDefaults.syncAuthor, now: now, markPending: false)
    }

    /// Deletes a local record (inside a caller's transaction), recorded in history as a sync change.
    public func deleteLocalFromSync(container: String, zone: String, name: String, type: String, device: String, now: Int64) throws {
        guard try deleteLocalRow(container: container, zone: zone, name: name) else { return }
        _ = try recordHistory(container: container,
                              changes: [HistoryChange(zoneName: zone, recordName: name, recordType: type, kind: .delete, changedKeys: [])],
                              device: device, author: LocalStoreDefaults.syncAuthor, now: now, markPending: false)
    }

    /// Deletes a local record without history (inside a caller's transaction); false when there
    /// was none.
    func deleteLocalRow(container: String, zone: String, name: String) throws -> Bool {
        try connection.run("DELETE FROM local_records WHERE container=? AND zone_name=? AND record_name=?", container, zone, name)
        return connection.changes > 0
    }

    /// Reads a local record inside a caller's transaction.
    public func localRecordInTransaction(container: String, zone: String, name: String) throws -> LocalRecord? {
        try loadLocal(container: container, zone: zone, name: name)
    }

    /// Stores the cloud's version of a record (inside a caller's transaction). `fieldsJSON`:
    /// the record's fields already encoded, if the caller has them.
    public func upsertCache(_ record: Record, _ scope: CacheScope, fieldsJSON: String? = nil) throws {
        try upsertCache([record], scope, fieldsJSON: [fieldsJSON])
    }

    /// Forgets the cloud's version of a record (inside a caller's transaction).
    public func deleteCache(_ id: RecordID, _ scope: CacheScope) throws {
        try connection.run("""
            DELETE FROM cached_records WHERE container=? AND scope=? AND zone_name=? AND owner=? AND record_name=?
            """, scope.container, scope.column, id.zoneID.zoneName, id.zoneID.ownerRecordName, id.recordName)
    }

    /// The cached version inside a caller's transaction.
    public func cachedRecordInTransaction(_ id: RecordID, _ scope: CacheScope) throws -> Record? {
        try connection.queryOne("""
            SELECT record_name, record_type, change_tag, fields, created_ms, created_user, created_device,
                modified_ms, modified_user, modified_device
            FROM cached_records WHERE container=? AND scope=? AND zone_name=? AND owner=? AND record_name=?
            """, [scope.container, scope.column, id.zoneID.zoneName, id.zoneID.ownerRecordName, id.recordName]) {
            try DeviceStore.decodeCached($0, zoneID: id.zoneID)
        }
    }

    /// Appends to the conflict log (inside a caller's transaction).
    public func logConflict(container: String, zone: String, name: String, policy: String, resolution: String,
                            detail: JSONValue, resolved: Bool, now: Int64) throws {
        try connection.run("""
            INSERT INTO conflicts(container, time_ms, zone_name, record_name, policy, resolution, detail, resolved)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, container, now, zone, name, policy, resolution, detail.serialized(), resolved)
    }

    /// The records that have unresolved conflicts in the log: only these need settling after a
    /// push (the log has no index by record, so an UPDATE per pushed record scans it).
    func unresolvedConflictRecords(container: String) throws -> Set<LocalRecordKey> {
        Set(try connection.query("SELECT DISTINCT zone_name, record_name FROM conflicts WHERE container=? AND resolved=0",
                                 [container]) { LocalRecordKey(zoneName: $0.string(0), recordName: $0.string(1)) })
    }

    /// Marks the unresolved conflicts of a record resolved (after it finally synced).
    public func settleConflicts(container: String, zone: String, name: String) throws {
        try connection.run("UPDATE conflicts SET resolved=1 WHERE container=? AND zone_name=? AND record_name=? AND resolved=0",
                           container, zone, name)
    }

    /// The conflict log, newest first.
    public func conflicts(container: String, unresolvedOnly: Bool = false, limit: Int = 100) throws(CloudError) -> [ConflictEntry] {
        try guarded {
            try connection.query("""
                SELECT id, time_ms, zone_name, record_name, policy, resolution, detail, resolved FROM conflicts
                WHERE container=? AND (?=0 OR resolved=0) ORDER BY id DESC LIMIT ?
                """, [container, unresolvedOnly, limit]) {
                ConflictEntry(id: $0.int64(0), time: $0.int64(1), zoneName: $0.string(2), recordName: $0.string(3),
                              policy: $0.string(4), resolution: $0.string(5), detail: $0.string(6), resolved: $0.bool(7))
            }
        }
    }
}
