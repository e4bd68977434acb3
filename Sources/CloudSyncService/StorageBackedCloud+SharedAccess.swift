import CloudSyncCore

/// The rules of the shared database (issue 18). A participant's call on a shared zone names the
/// zone's owner (`DatabaseRequest.sharedOwner`, or the owner in its zone IDs); it is checked
/// against the share's participants and then runs on the owner's private database through the
/// request's `ownerView`, so the records stay the owner's and appear in the owner's changes.
/// Non-participants cannot read (`zoneNotFound`, 3) nor write (`permissionFailure`, 77);
/// read-only participants cannot write (77).
extension DatabaseRequest {
    /// The owner's private database as a participant's call reaches it: the caller and device
    /// stay (they stamp what is saved and skip their own notifications), the zone owner is
    /// `sharedOwner`.
    var ownerView: DatabaseRequest {
        DatabaseRequest(container: container, scope: .private, userRecordName: userRecordName, deviceID: deviceID,
                        environment: environment, sharedOwner: sharedOwner)
    }

    /// The shared database of the caller seen with the zones of `owner` (notifications to
    /// participants name the shared scope and the owner's zone IDs).
    func participantView(owner: String) -> DatabaseRequest {
        DatabaseRequest(container: container, scope: .shared, userRecordName: userRecordName, deviceID: deviceID,
                        environment: environment, sharedOwner: owner)
    }

    /// The caller's own shared database (its zone list, changes and subscriptions).
    var sharedDatabase: DatabaseRequest {
        DatabaseRequest(container: container, scope: .shared, userRecordName: userRecordName, deviceID: deviceID,
                        environment: environment)
    }
}

extension StorageBackedCloud {
    /// A shared-database request with its owner: `sharedOwner`, else the one owner the zone IDs
    /// name (the caller's own name and the current-user placeholder name nobody).
    func sharedRequest(_ request: DatabaseRequest, owners: [String]) throws(CloudError) -> DatabaseRequest {
        if let owner = request.sharedOwner, owner != request.userRecordName { return request }
        let named = Set(owners.filter { !$0.isEmpty && $0 != ZoneID.currentUserOwner && $0 != request.userRecordName })
        guard named.count <= 1 else {
            throw CloudError(.invalidArguments, "one call on the shared database addresses the zones of one owner")
        }
        guard let owner = named.first else {
            throw CloudError(.zoneNotFound,
                             "the shared database holds the zones other accounts share with you: name the zone's owner (--owner OWNER)")
        }
        return request.owned(by: owner)
    }

    /// The owner's private database of a shared request, or nil.
    func ownerDatabase(_ shared: DatabaseRequest, _ tx: any CloudStorageTransaction) throws -> DatabaseRow? {
        guard let owner = shared.sharedOwner else { return nil }
        return try tx.findDatabase(container: shared.storageContainer, scope: .private, owner: owner)
    }

    /// The caller's permission on zone `zoneName` of the shared request's owner, or nil when the
    /// zone is not shared with them (not invited, or not accepted yet).
    func sharedPermission(_ shared: DatabaseRequest, zoneName: String, _ tx: any CloudStorageTransaction) throws -> SharePermission? {
        guard let db = try ownerDatabase(shared, tx), try tx.share(zoneName: zoneName, dbID: db.id) != nil,
              let entry = try tx.shareParticipants(zoneName: zoneName, dbID: db.id)
                .first(where: { $0.userRecordName == shared.userRecordName }),
              entry.accepted, entry.permission != .none else { return nil }
        return entry.permission
    }

    /// What a non-participant reading a zone of the shared database gets (exit 3).
    func notSharedError(_ zoneName: String, recordID: RecordID?) -> CloudError {
        CloudError(.zoneNotFound, "zone '\(zoneName)' is not in your shared database (no accepted share of its owner)",
                   recordID: recordID)
    }

    /// Reading a shared zone needs an accepted share.
    func requireSharedRead(_ shared: DatabaseRequest, zoneName: String, _ tx: any CloudStorageTransaction) throws {
        guard try sharedPermission(shared, zoneName: zoneName, tx) != nil else { throw notSharedError(zoneName, recordID: nil) }
    }

    /// Writing to a shared zone needs an accepted read-write share.
    func requireSharedWrite(_ shared: DatabaseRequest, zoneName: String, _ tx: any CloudStorageTransaction) throws {
        switch try sharedPermission(shared, zoneName: zoneName, tx) {
        case .readWrite?:
            return
        case .readOnly?:
            throw CloudError(.permissionFailure, "you have read-only access to shared zone '\(zoneName)'; its owner can grant read-write")
        default:
            throw CloudError(.permissionFailure, "zone '\(zoneName)' is not shared with you; you cannot write to it")
        }
    }

    /// Assets are stored in the owner's database: uploading one needs a read-write share of some
    /// zone of the owner (the save that references it is checked against its own zone).
    func requireWritableSharedZone(_ shared: DatabaseRequest, _ tx: any CloudStorageTransaction) throws {
        if let db = try ownerDatabase(shared, tx) {
            for share in try tx.shares(dbID: db.id) where try sharedPermission(shared, zoneName: share.zoneName, tx) == .readWrite {
                return
            }
        }
        throw CloudError(.permissionFailure, "no zone of this owner is shared with you read-write")
    }

    /// Reading an asset through the shared database: it must be referenced by `record`, read
    /// with the rules of records (so the record's zone must be shared with the caller: others
    /// get `zoneNotFound`, 3, as for the record itself). An asset of another zone of the owner,
    /// shared or not, is never reached through a record it is not in.
    func requireSharedAsset(_ reference: AssetReference, of record: RecordID?, _ shared: DatabaseRequest) throws(CloudError) {
        guard let record else {
            throw CloudError(.invalidArguments,
                             "an asset of the shared database is read with the record it belongs to (its zone and record name)")
        }
        let found = try fetchRecords([record], in: shared).values.first
        guard let found else { throw notSharedError(record.zoneID.zoneName, recordID: record) }
        let owner = try found.get()
        guard owner.fields.values.contains(where: { $0.references(asset: reference.checksum) }) else {
            throw CloudError(.assetFileNotFound,
                             "asset \(reference.checksum.prefix(12))… is not in record '\(record.recordName)' of shared zone '\(record.zoneID.zoneName)'",
                             recordID: record)
        }
    }

    // MARK: The participants' shared databases

    /// A participant's shared database, created on first use.
    func sharedDatabase(of participant: String, _ request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws -> DatabaseRow {
        if let row = try tx.findDatabase(container: request.storageContainer, scope: .shared, owner: participant) { return row }
        return try tx.createDatabase(container: request.storageContainer, scope: .shared, owner: participant, now: clock())
    }

    /// Records in a participant's shared database that zone `zoneName` of `owner` appeared,
    /// changed (`live`) or went away, and sends the zone notifications of a change of the zone list.
    func markSharedZone(_ zoneName: String, owner: String, participant: String, live: Bool, listChanged: Bool,
                        request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws -> DatabaseRow {
        let db = try sharedDatabase(of: participant, request, tx)
        let seq = try tx.nextDatabaseSeq(db.id)
        try tx.putSharedZone(SharedZoneRow(owner: owner, zoneName: zoneName, live: live, dbSeq: seq), dbID: db.id)
        if listChanged {
            try enqueueZoneNotifications(zoneName: zoneName, dbID: db.id, request: request.participantView(owner: owner),
                                         deleted: !live, tx)
        }
        return db
    }

    /// After a modify of a shared zone (in the owner's database `dbID`): every accepted
    /// participant's shared database lists the zone as changed, and their subscriptions there
    /// fire. One share lookup when the zone is not shared.
    func announceSharedZoneChange(zone: ZoneRow, dbID: Int64, request: DatabaseRequest, saved: [Record], deleted: [RecordID],
                                  _ tx: any CloudStorageTransaction) throws {
        // Only a private database's zones are shared: the public database costs no look-up.
        guard request.scope == .private, try tx.share(zoneName: zone.name, dbID: dbID) != nil else { return }
        let owner = owner(of: request)
        for participant in try tx.shareParticipants(zoneName: zone.name, dbID: dbID) where participant.accepted {
            let db = try markSharedZone(zone.name, owner: owner, participant: participant.userRecordName, live: true,
                                        listChanged: false, request: request, tx)
            try enqueueRecordNotifications(zone: zone, dbID: db.id, recordsDbID: dbID,
                                           request: request.participantView(owner: owner), saved: saved, deleted: deleted, tx)
        }
    }

    /// Ends the share of a zone (if any) before the zone is deleted: every participant loses it.
    func endShare(zoneName: String, dbID: Int64, request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws {
        guard try tx.share(zoneName: zoneName, dbID: dbID) != nil else { return }
        let owner = owner(of: request)
        for participant in try tx.shareParticipants(zoneName: zoneName, dbID: dbID) where participant.accepted {
            _ = try markSharedZone(zoneName, owner: owner, participant: participant.userRecordName, live: false,
                                   listChanged: true, request: request, tx)
        }
        try tx.deleteShare(zoneName: zoneName, dbID: dbID)
    }

    /// The zones of the caller's shared database: every accepted share's zone, with its owner.
    func fetchSharedZones(in request: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        let base = request.sharedDatabase
        let db = try ensureDatabase(base)
        return try read { tx in
            var out: [ZoneInfo] = []
            for row in try tx.sharedZones(dbID: db.id) where row.live {
                let view = base.owned(by: row.owner)
                guard let ownerDB = try ownerDatabase(view, tx), let zone = try tx.findZone(row.zoneName, dbID: ownerDB.id),
                      try sharedPermission(view, zoneName: row.zoneName, tx) != nil else { continue }
                out.append(info(zone, request: view))
            }
            return out
        }
    }

    /// Zone changes of the caller's shared database: zones shared, changed or unshared (reason
    /// `unshared`) since the token, with their owners.
    func fetchSharedDatabaseChanges(since token: ServerChangeToken?, limit: Int,
                                    in request: DatabaseRequest) throws(CloudError) -> DatabaseChanges {
        let base = request.sharedDatabase
        let payload: TokenPayload?
        if let token { payload = try ChangeTokenCodec.decode(token.rawValue, expecting: .database) } else { payload = nil }
        let pageSize = max(1, min(limit, CloudLimits.maxPageSize))
        let db = try ensureDatabase(base)
        return try read { tx in
            guard let current = try findDatabase(base, tx) else { throw CloudError(.internalError, "database vanished") }
            let since = try databaseSequence(since: payload, dbID: db.id, current: current.seq)
            let rows = try tx.sharedZoneChanges(dbID: db.id, since: since, limit: pageSize + 1)
            let moreComing = rows.count > pageSize
            var changed: [ZoneID] = []
            var deleted: [(zoneID: ZoneID, reason: ZoneDeletionReason)] = []
            for row in rows.prefix(pageSize) {
                let zoneID = ZoneID(zoneName: row.zoneName, ownerRecordName: row.owner)
                if row.live {
                    changed.append(zoneID)
                } else {
                    deleted.append((zoneID, .unshared))
                }
            }
            let newSeq = moreComing ? (rows.prefix(pageSize).last?.dbSeq ?? since) : current.seq
            let newToken = databaseToken(dbID: db.id, sequence: newSeq)
            return DatabaseChanges(changedZones: changed, deletedZones: deleted, token: newToken, moreComing: moreComing)
        }
    }
}

extension FieldValue {
    /// True when this value is (or lists) the asset with this checksum.
    func references(asset checksum: String) -> Bool {
        switch self {
        case .asset(let reference): reference.checksum == checksum
        case .list(_, let items): items.contains { $0.references(asset: checksum) }
        default: false
        }
    }
}
