import CloudSyncService
import CloudSyncCore
import CloudSyncSQLite

/// What the public mirror keeps in its device file (seed 002's `public.sqlite`): pulled pages
/// applied with their watermark in one transaction, and the cached names a full scan compares.
extension DeviceStore {
    /// The conventional location of the public store of a device under `home`: a file of its
    /// own (seed 002 keeps public and private data in separate stores), in a folder no private
    /// device file can be named like (`devices/<account>/public/<device>.sqlite`).
    public static func publicStorePath(home: String, account: String, device: String) -> String {
        "\(home)/devices/\(account)/public/\(device).sqlite"
    }

    /// Applies records a public query returned (and deletions a scan found) to the local store,
    /// the cache and the type's watermark, in one transaction. Records whose cached version has
    /// the same change tag are skipped (the overlap margin returns them again). Returns how
    /// many records changed and how many deletions were applied.
    ///
    /// `discarding`: records whose local changes are dropped first, in the same transaction
    /// (`store revert`): their pending marks are cleared, their refusals settled, and the cloud's
    /// versions in `records` are applied even when the cache already has them.
    func applyPublicPage(_ records: [Record], deleted: [RecordID], zoneID: ZoneID, _ scope: CacheScope,
                         watermarkKey: String, watermark: Int64?, sink: any LocalSink,
                         discarding: Set<String> = []) throws(CloudError) -> (changed: Int, deleted: Int) {
        try guarded {
            try connection.transaction(.immediate) {
                for name in discarding.sorted() {
                    try clearPending(container: scope.container, zone: zoneID.zoneName, name: name, ifTxn: nil)
                    try settleConflicts(container: scope.container, zone: zoneID.zoneName, name: name)
                }
                var changed: [Record] = []
                for record in records {
                    if discarding.contains(record.recordID.recordName) {
                        changed.append(record)
                        continue
                    }
                    let tag = try connection.queryOne("""
                        SELECT change_tag FROM cached_records
                        WHERE container=? AND scope=? AND zone_name=? AND owner=? AND record_name=?
                        """, [scope.container, scope.column, zoneID.zoneName, zoneID.ownerRecordName,
                              record.recordID.recordName]) { $0.string(0) }
                    if let tag, tag == record.system?.changeTag { continue }
                    changed.append(record)
                }
                if !changed.isEmpty || !deleted.isEmpty {
                    let encoded = changed.map { RecordJSON.fieldsText($0.fields) }
                    let page = CachePage(zoneID: zoneID, changed: changed, deleted: deleted, token: ServerChangeToken(rawValue: ""),
                                         encodedFields: encoded)
                    var ancestors: [RecordID: Record] = [:]
                    if try hasPending(container: scope.container, zone: zoneID.zoneName) {
                        for id in changed.map(\.recordID) + deleted
                        where try pendingRow(container: scope.container, zone: zoneID.zoneName, name: id.recordName) != nil {
                            if let cached = try cachedRecordInTransaction(id, scope) { ancestors[id] = cached }
                        }
                    }
                    try sink.apply(page, ancestors: ancestors, in: self)
                    try upsertCache(changed, scope, fieldsJSON: encoded, zone: zoneID)
                    for id in deleted { try deleteCache(RecordID(recordName: id.recordName, zoneID: zoneID), scope) }
                }
                if let watermark {
                    let old = try connection.queryOne("SELECT value FROM sync_state WHERE container=? AND key=?",
                                                      [scope.container, watermarkKey]) { Int64($0.string(0)) } ?? nil
                    if old.map({ watermark > $0 }) ?? true {
                        try connection.run("INSERT OR REPLACE INTO sync_state(container, key, value) VALUES (?, ?, ?)",
                                           scope.container, watermarkKey, String(watermark))
                    }
                }
                return (changed.count, deleted.count)
            }
        }
    }

    /// The names of the cached (cloud) versions of records of one type in a zone: what a full
    /// scan of the public database compares with what the cloud still has.
    func cachedRecordNames(ofType type: String, in zoneID: ZoneID, _ scope: CacheScope) throws(CloudError) -> [String] {
        try guarded {
            try connection.query("""
                SELECT record_name FROM cached_records
                WHERE container=? AND scope=? AND zone_name=? AND owner=? AND record_type=? ORDER BY record_name
                """, [scope.container, scope.column, zoneID.zoneName, zoneID.ownerRecordName, type]) { $0.string(0) }
        }
    }
}
