import CloudSyncService
import CloudSyncCore

/// A replaced or recreated cloud (a new store epoch) seen by the public mirror. Without this
/// check the next full scan would find every cached record gone and delete the account's own
/// public records locally, although they were lost with the old cloud, not deleted by anyone.
extension PublicMirror {
    /// The sync-state key of the cloud's store epoch the public store's cache came from.
    public static let epochKey = "public_epoch"
    /// The sync-state key of the account's userRecordName in that cloud: a new cloud gives the
    /// account a new one, so its records in the cache are known by the old.
    public static let userKey = "public_user"

    /// Reads the cloud's store epoch (one small database-changes request on the account's
    /// private database: the public database keeps no change tokens) and compares it with the
    /// one the cache came from. On a new epoch: the records this account created are marked
    /// pending (uploaded again, as the private store re-uploads a lost zone), other accounts'
    /// records without local edits are dropped (the scan brings back whatever the new cloud
    /// has), and the cache, watermarks, scan times and subscriptions are forgotten.
    func checkEpoch(_ report: inout SyncReport) throws(CloudError) {
        let privateRequest = DatabaseRequest(container: request.container, scope: .private,
                                             userRecordName: request.userRecordName, deviceID: request.deviceID,
                                             environment: request.environment)
        let probe = try cloud.fetchDatabaseChanges(since: nil, limit: 1, in: privateRequest)
        work.epochProbes += 1
        guard let epoch = ChangeFetcher.epoch(of: probe.token, .database) else { return }
        let stored = try store.syncState(container: container, Self.epochKey).flatMap { UInt64($0) }
        if let stored, stored != epoch {
            let formerUser = try store.syncState(container: container, Self.userKey) ?? request.userRecordName
            try store.forgetPublicCloud(synchronizer.scope, zoneID: zoneID, creator: formerUser,
                                        device: request.deviceID, now: synchronizer.clock())
            report.epochChanged = true
        }
        if stored != epoch { try store.setSyncState(container: container, Self.epochKey, String(epoch)) }
        if try store.syncState(container: container, Self.userKey) != request.userRecordName {
            try store.setSyncState(container: container, Self.userKey, request.userRecordName)
        }
    }
}

extension DeviceStore {
    /// After the cloud was replaced: re-marks for upload the local records `creator` made,
    /// drops the other cached records that have no local edits, and forgets the cache and the
    /// mirror's sync state, in one transaction.
    func forgetPublicCloud(_ scope: CacheScope, zoneID: ZoneID, creator: String, device: String,
                           now: Int64) throws(CloudError) {
        try guarded {
            try connection.transaction(.immediate) {
                let rows = try connection.query("""
                    SELECT c.record_name, c.created_user, l.record_type, p.record_name IS NOT NULL
                    FROM cached_records c
                    JOIN local_records l ON l.container=c.container AND l.zone_name=c.zone_name AND l.record_name=c.record_name
                    LEFT JOIN pending p ON p.container=c.container AND p.zone_name=c.zone_name AND p.record_name=c.record_name
                    WHERE c.container=? AND c.scope=? AND c.zone_name=? AND c.owner=?
                    """, [scope.container, scope.column, zoneID.zoneName, zoneID.ownerRecordName]) {
                    (name: $0.string(0), creator: $0.string(1), type: $0.string(2), pending: $0.bool(3))
                }
                let own = rows.filter { $0.creator == creator }
                if !own.isEmpty {
                    _ = try recordHistory(container: scope.container,
                                          changes: own.map { HistoryChange(zoneName: zoneID.zoneName, recordName: $0.name,
                                                                           recordType: $0.type, kind: .update, changedKeys: []) },
                                          device: device, author: "recovery", now: now, markPending: true)
                }
                var dropped: [HistoryChange] = []
                for row in rows where row.creator != creator && !row.pending {
                    if try deleteLocalRow(container: scope.container, zone: zoneID.zoneName, name: row.name) {
                        dropped.append(HistoryChange(zoneName: zoneID.zoneName, recordName: row.name, recordType: row.type,
                                                     kind: .delete, changedKeys: []))
                    }
                }
                if !dropped.isEmpty {
                    _ = try recordHistory(container: scope.container, changes: dropped, device: device,
                                          author: LocalStoreDefaults.syncAuthor, now: now, markPending: false)
                }
                try connection.run("DELETE FROM cached_records WHERE container=? AND scope=?", scope.container, scope.column)
                try connection.run("""
                    DELETE FROM sync_state WHERE container=? AND (substr(key, 1, ?)=? OR substr(key, 1, ?)=? OR key IN (?, ?))
                    """, scope.container, PublicMirror.watermarkPrefix.utf8.count, PublicMirror.watermarkPrefix,
                    PublicMirror.scanPrefix.utf8.count, PublicMirror.scanPrefix, PublicMirror.subscriptionsKey,
                    DeviceStore.zonesCreatedKey)
            }
        }
    }
}
