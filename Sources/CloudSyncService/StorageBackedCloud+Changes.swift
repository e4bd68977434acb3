import CloudSyncCore

extension StorageBackedCloud {
    public func fetchDatabaseChanges(since token: ServerChangeToken?, limit: Int,
                                     in request: DatabaseRequest) throws(CloudError) -> DatabaseChanges {
        guard request.scope != .public else {
            throw CloudError(.invalidArguments, "the public database does not support change tracking; query it instead")
        }
        if request.scope == .shared { return try fetchSharedDatabaseChanges(since: token, limit: limit, in: request) }
        let payload: TokenPayload?
        if let token { payload = try ChangeTokenCodec.decode(token.rawValue, expecting: .database) } else { payload = nil }
        let pageSize = max(1, min(limit, CloudLimits.maxPageSize))
        let db = try ensureDatabase(request)
        return try read { tx in
            guard let current = try findDatabase(request, tx) else { throw CloudError(.internalError, "database vanished") }
            let since = try databaseSequence(since: payload, dbID: db.id, current: current.seq)
            let rows = try tx.zoneChanges(dbID: db.id, since: since, limit: pageSize + 1)
            let moreComing = rows.count > pageSize
            let page = rows.prefix(pageSize)
            var changed: [ZoneID] = []
            var deleted: [(zoneID: ZoneID, reason: ZoneDeletionReason)] = []
            for row in page {
                let zoneID = request.zoneID(row.name)
                if let reason = row.deletion {
                    deleted.append((zoneID, reason))
                } else {
                    changed.removeAll { $0 == zoneID }
                    changed.append(zoneID)
                }
            }
            let newSeq = moreComing ? (page.last?.dbSeq ?? since) : current.seq
            let newToken = databaseToken(dbID: db.id, sequence: newSeq)
            return DatabaseChanges(changedZones: changed, deletedZones: deleted, token: newToken, moreComing: moreComing)
        }
    }

    /// The sequence a database change token stands for in the database `dbID` (0 without a
    /// token); a token of another cloud or database, or one ahead of `current`, has expired.
    func databaseSequence(since payload: TokenPayload?, dbID: Int64, current: Int64) throws(CloudError) -> Int64 {
        guard let payload else { return 0 }
        guard payload.epoch == epoch, payload.scopeID == dbID else {
            throw CloudError(.changeTokenExpired,
                             "the database change token belongs to another cloud or database; fetch again without it")
        }
        guard payload.sequence <= current else {
            throw CloudError(.changeTokenExpired, "the database change token is ahead of the cloud; fetch again without it")
        }
        return payload.sequence
    }

    /// The database change token of `sequence` in the database `dbID`.
    func databaseToken(dbID: Int64, sequence: Int64) -> ServerChangeToken {
        ServerChangeToken(rawValue: ChangeTokenCodec.encode(
            TokenPayload(kind: .database, epoch: epoch, scopeID: dbID, sequence: sequence)))
    }

    public func fetchZoneChanges(_ zoneName: String, since token: ServerChangeToken?, limit: Int,
                                 holding known: (any KnownRecordVersions)?, in request: DatabaseRequest) throws(CloudError) -> ZoneChanges {
        guard request.scope != .public else {
            throw CloudError(.invalidArguments, "the public database does not support change tracking; query it instead")
        }
        guard zoneName != ZoneID.defaultZoneName else {
            throw CloudError(.invalidArguments,
                             "_defaultZone does not track changes (no fetchChanges capability); keep synced records in a custom zone")
        }
        if request.scope == .shared {
            let shared = try sharedRequest(request, owners: [])
            try read { tx in try requireSharedRead(shared, zoneName: zoneName, tx) }
            return try fetchZoneChanges(zoneName, since: token, limit: limit, holding: known, in: shared.ownerView)
        }
        let payload: TokenPayload?
        if let token { payload = try ChangeTokenCodec.decode(token.rawValue, expecting: .zone) } else { payload = nil }
        let pageSize = max(1, min(limit, CloudLimits.maxPageSize))
        return try read { tx in
            guard let db = try findDatabase(request, tx) else {
                throw CloudError(.zoneNotFound, "zone '\(zoneName)' does not exist in the \(request.scope.rawValue) database")
            }
            let zone = try requireZone(zoneName, dbID: db.id, request: request, tx)
            var since: Int64 = 0
            if let payload {
                guard payload.epoch == epoch else {
                    throw CloudError(.changeTokenExpired, "the change token comes from another cloud; fetch the zone again without it")
                }
                guard payload.scopeID == zone.id else {
                    throw CloudError(.changeTokenExpired,
                                     "the change token belongs to another zone or an earlier incarnation of '\(zoneName)'; fetch the zone again without it")
                }
                guard payload.sequence <= zone.seq, payload.sequence >= zone.floorSeq else {
                    throw CloudError(.changeTokenExpired, "the change token of '\(zoneName)' has expired; fetch the zone again without it")
                }
                since = payload.sequence
            } else if zone.floorSeq > 0 {
                since = 0
            }
            let zoneID = request.zoneID(zone.name)
            let (rows, moreComing) = try tx.recordChanges(zone: zone, dbID: db.id, zoneID: zoneID, since: since,
                                                          limit: pageSize, holding: known)
            var changed: [Record] = []
            var encodedFields: [String?] = []
            var deleted: [RecordDeletion] = []
            changed.reserveCapacity(rows.count)
            encodedFields.reserveCapacity(rows.count)
            var lastSeq = since
            for stored in rows {
                lastSeq = stored.seq
                if stored.deleted {
                    deleted.append(RecordDeletion(recordID: stored.record.recordID, recordType: stored.record.recordType))
                } else {
                    changed.append(stored.record)
                    encodedFields.append(stored.fieldsText)
                }
            }
            return ZoneChanges(changed: changed, deleted: deleted,
                               token: zoneToken(zone, seq: moreComing ? lastSeq : zone.seq), moreComing: moreComing,
                               encodedFields: encodedFields)
        }
    }
}
