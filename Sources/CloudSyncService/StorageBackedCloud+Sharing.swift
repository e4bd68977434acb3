import CloudSyncCore

/// Zone shares (issue 18), the owner's and the participants' calls. A share lives in the
/// owner's private database: its row and participants (`CloudStorageTransaction` sharing
/// primitives) and its record `cloudkit.zoneshare` in the zone. Accepting adds the zone to the
/// participant's shared database; removing, leaving or deleting takes it away (reason
/// `unshared` in their next database changes).
extension StorageBackedCloud: SharingService {
    /// The most accounts one call invites or removes.
    public static let maxParticipantsPerCall = 100

    func requireOwnerCall(_ request: DatabaseRequest, zoneName: String) throws(CloudError) {
        guard request.scope == .private, request.sharedOwner == nil else {
            throw CloudError(.invalidArguments, "shares are made and changed by the owner, in the private database")
        }
        try NameRules.validateZoneName(zoneName)
        guard zoneName != ZoneID.defaultZoneName else {
            throw CloudError(.invalidArguments, "_defaultZone cannot be shared; share a custom zone")
        }
    }

    /// The share of `row`, with its participants and their names.
    func share(_ row: ShareRow, owner: String, request: DatabaseRequest, dbID: Int64, _ tx: any CloudStorageTransaction) throws -> Share {
        let participants = try tx.shareParticipants(zoneName: row.zoneName, dbID: dbID).map { entry in
            ShareParticipant(userRecordName: entry.userRecordName, accountName: try tx.accountName(ofUserRecordName: entry.userRecordName),
                             permission: entry.permission, acceptance: entry.accepted ? .accepted : .pending)
        }
        let url = ShareURL(container: request.container, environment: request.environment, ownerRecordName: owner,
                           zoneName: row.zoneName, token: row.token)
        return Share(zoneID: ZoneID(zoneName: row.zoneName, ownerRecordName: owner),
                     ownerName: try tx.accountName(ofUserRecordName: owner), title: row.title,
                     publicPermission: row.publicPermission, url: url.text, participants: participants,
                     created: row.created, modified: row.modified)
    }

    /// Writes the zone's share record (`row` nil: its tombstone), as a change of the zone.
    func writeShareRecord(_ row: ShareRow?, zone: ZoneRow, dbID: Int64, request: DatabaseRequest,
                          _ tx: any CloudStorageTransaction) throws {
        let stamp = ChangeStamp(timestamp: clock(), userRecordName: request.userRecordName, deviceID: request.deviceID)
        let zoneID = request.zoneID(zone.name)
        let existing = try tx.loadRecord(Share.recordName, zone: zone, dbID: dbID, zoneID: zoneID)
        let live = existing.flatMap { $0.deleted ? nil : $0 }
        let seq = zone.seq + 1
        var saved: [Record] = []
        var deleted: [RecordID] = []
        var countDelta = 0
        if let row {
            let url = ShareURL(container: request.container, environment: request.environment,
                               ownerRecordName: owner(of: request), zoneName: zone.name, token: row.token)
            let fields: [String: FieldValue] = ["title": .string(row.title),
                                                "publicPermission": .string(row.publicPermission.rawValue),
                                                "url": .string(url.text)]
            let created = live?.record.system?.created ?? stamp
            let tag = changeTag(zoneID: zone.id, seq: seq)
            _ = try tx.writeRecord(RecordWrite(name: Share.recordName, type: Share.recordType, seq: seq, changeTag: tag,
                                               fieldsText: RecordJSON.fieldsText(fields), hasRefs: false, created: created,
                                               modified: stamp),
                                   zone: zone, dbID: dbID, ifAbsent: false)
            var record = Record(recordID: RecordID(recordName: Share.recordName, zoneID: zoneID), recordType: Share.recordType,
                                fields: fields)
            record.system = SystemFields(changeTag: tag, created: created, modified: stamp)
            saved.append(record)
            if live == nil { countDelta = 1 }
        } else {
            guard live != nil else { return }
            try tx.tombstoneRecord(Share.recordName, zone: zone, dbID: dbID, seq: seq, stamp: stamp)
            deleted.append(RecordID(recordName: Share.recordName, zoneID: zoneID))
            countDelta = -1
        }
        let dbSeq = try tx.nextDatabaseSeq(dbID)
        try tx.advanceZone(zone, dbID: dbID, seq: seq, dbSeq: dbSeq, countDelta: countDelta)
        try enqueueRecordNotifications(zone: zone, dbID: dbID, request: request, saved: saved, deleted: deleted, tx)
        try announceSharedZoneChange(zone: zone, dbID: dbID, request: request, saved: saved, deleted: deleted, tx)
    }

    /// The owner's database, zone and share row of an owner call.
    func ownedShare(_ zoneName: String, request: DatabaseRequest,
                    _ tx: any CloudStorageTransaction) throws -> (db: DatabaseRow, zone: ZoneRow, row: ShareRow) {
        let db = try ensureDatabase(request, tx)
        let zone = try requireZone(zoneName, dbID: db.id, request: request, tx)
        guard let row = try tx.share(zoneName: zoneName, dbID: db.id) else {
            throw CloudError(.unknownItem, "zone '\(zoneName)' is not shared; make its share with 'cloudsync share create'")
        }
        return (db, zone, row)
    }

    /// The userRecordNames of account logins. An account that does not exist is UNKNOWN_ITEM
    /// ("no account named 'bobb'"): an invitation never creates one, so a mistyped name is told
    /// at once instead of inviting nobody.
    func participantNames(_ accounts: [String], request: DatabaseRequest,
                          _ tx: any CloudStorageTransaction) throws -> [String] {
        guard !accounts.isEmpty, accounts.count <= Self.maxParticipantsPerCall else {
            throw CloudError(.invalidArguments, "name 1 to \(Self.maxParticipantsPerCall) accounts, got \(accounts.count)")
        }
        return try accounts.map { name in
            guard !name.isEmpty, name.utf8.count <= NameRules.maxIdentifierLength,
                  !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
                throw CloudError(.invalidArguments, "\(NameRules.quoted(name)) is not an account name")
            }
            if let known = try tx.userRecordName(ofAccount: name) {
                guard known != request.userRecordName else {
                    throw CloudError(.invalidArguments, "\(NameRules.quoted(name)) is the zone's owner")
                }
                return known
            }
            throw CloudError(.unknownItem, "no account named \(NameRules.quoted(name))")
        }
    }

    // MARK: The owner's calls

    public func saveShare(zoneName: String, title: String?, publicPermission: SharePermission?,
                          in request: DatabaseRequest) throws(CloudError) -> Share {
        try requireOwnerCall(request, zoneName: zoneName)
        if let title, title.utf8.count > 1024 {
            throw CloudError(.invalidArguments, "a share title is at most 1024 bytes")
        }
        return try write { tx in
            let db = try ensureDatabase(request, tx)
            let zone = try requireZone(zoneName, dbID: db.id, request: request, tx)
            let now = clock()
            var row = try tx.share(zoneName: zoneName, dbID: db.id)
                ?? ShareRow(zoneName: zoneName, title: zoneName, publicPermission: .none, token: RandomID.hex(bytes: 16),
                            created: now, modified: now)
            if let title { row.title = title }
            if let publicPermission { row.publicPermission = publicPermission }
            row.modified = now
            try tx.putShare(row, dbID: db.id)
            try writeShareRecord(row, zone: zone, dbID: db.id, request: request, tx)
            return try share(row, owner: request.userRecordName, request: request, dbID: db.id, tx)
        }
    }

    public func addParticipants(_ accounts: [String], permission: SharePermission, zoneName: String,
                                in request: DatabaseRequest) throws(CloudError) -> Share {
        try requireOwnerCall(request, zoneName: zoneName)
        guard permission != .none else {
            throw CloudError(.invalidArguments, "invite participants as read-only or read-write")
        }
        return try write { tx in
            let (db, _, row) = try ownedShare(zoneName, request: request, tx)
            let existing = try tx.shareParticipants(zoneName: zoneName, dbID: db.id)
            for name in try participantNames(accounts, request: request, tx) {
                let accepted = existing.first { $0.userRecordName == name }?.accepted ?? false
                try tx.putShareParticipant(ShareParticipantRow(userRecordName: name, permission: permission, accepted: accepted),
                                           zoneName: zoneName, dbID: db.id)
            }
            return try share(row, owner: request.userRecordName, request: request, dbID: db.id, tx)
        }
    }

    public func removeParticipants(_ accounts: [String], zoneName: String,
                                   in request: DatabaseRequest) throws(CloudError) -> Share {
        try requireOwnerCall(request, zoneName: zoneName)
        return try write { tx in
            let (db, _, row) = try ownedShare(zoneName, request: request, tx)
            let existing = try tx.shareParticipants(zoneName: zoneName, dbID: db.id)
            for (account, name) in zip(accounts, try participantNames(accounts, request: request, tx)) {
                guard let entry = existing.first(where: { $0.userRecordName == name }) else {
                    throw CloudError(.unknownItem, "\(NameRules.quoted(account)) is not a participant of the share of '\(zoneName)'")
                }
                if entry.accepted {
                    _ = try markSharedZone(zoneName, owner: request.userRecordName, participant: name, live: false,
                                           listChanged: true, request: request, tx)
                }
                try tx.deleteShareParticipant(name, zoneName: zoneName, dbID: db.id)
            }
            return try share(row, owner: request.userRecordName, request: request, dbID: db.id, tx)
        }
    }

    public func deleteShare(zoneName: String, in request: DatabaseRequest) throws(CloudError) {
        try requireOwnerCall(request, zoneName: zoneName)
        try write { tx in
            let (db, zone, _) = try ownedShare(zoneName, request: request, tx)
            try endShare(zoneName: zoneName, dbID: db.id, request: request, tx)
            try writeShareRecord(nil, zone: zone, dbID: db.id, request: request, tx)
        }
    }

    public func ownedShares(zoneName: String?, in request: DatabaseRequest) throws(CloudError) -> [Share] {
        guard request.scope == .private, request.sharedOwner == nil else {
            throw CloudError(.invalidArguments, "the shares you own are in your private database")
        }
        return try read { tx in
            guard let db = try findDatabase(request, tx) else { return [] }
            let rows = try zoneName.map { name in try tx.share(zoneName: name, dbID: db.id).map { [$0] } ?? [] }
                ?? tx.shares(dbID: db.id)
            return try rows.map { try share($0, owner: request.userRecordName, request: request, dbID: db.id, tx) }
        }
    }

    // MARK: The participants' calls

    public func acceptShare(url: String, in request: DatabaseRequest) throws(CloudError) -> Share {
        let parsed = try ShareURL(parsing: url)
        guard parsed.container == request.container, parsed.environment == request.environment else {
            throw CloudError(.invalidArguments,
                             "the share is in container \(parsed.container) (\(parsed.environment.rawValue)); accept it there")
        }
        guard parsed.ownerRecordName != request.userRecordName else {
            throw CloudError(.invalidArguments, "you own this share; the accounts you invite accept it")
        }
        let shared = request.sharedDatabase.owned(by: parsed.ownerRecordName)
        return try write { tx in
            guard let db = try ownerDatabase(shared, tx), let row = try tx.share(zoneName: parsed.zoneName, dbID: db.id),
                  row.token == parsed.token, try tx.findZone(parsed.zoneName, dbID: db.id) != nil else {
                throw CloudError(.permissionFailure, "the share URL is no longer valid: the share was deleted or made anew")
            }
            let existing = try tx.shareParticipants(zoneName: parsed.zoneName, dbID: db.id)
                .first { $0.userRecordName == request.userRecordName }
            var entry: ShareParticipantRow
            if let existing {
                entry = existing
            } else if row.publicPermission != .none {
                entry = ShareParticipantRow(userRecordName: request.userRecordName, permission: row.publicPermission, accepted: false)
            } else {
                throw CloudError(.permissionFailure, "you are not invited to this share; ask its owner to add your account")
            }
            if !entry.accepted {
                entry.accepted = true
                try tx.putShareParticipant(entry, zoneName: parsed.zoneName, dbID: db.id)
                _ = try markSharedZone(parsed.zoneName, owner: parsed.ownerRecordName, participant: request.userRecordName,
                                       live: true, listChanged: true, request: request.sharedDatabase, tx)
            }
            return try share(row, owner: parsed.ownerRecordName, request: request, dbID: db.id, tx)
        }
    }

    public func leaveShare(zoneName: String, in request: DatabaseRequest) throws(CloudError) {
        try NameRules.validateZoneName(zoneName)
        let shared = try sharedRequest(request.sharedDatabase.owned(by: request.sharedOwner ?? ""), owners: [])
        try write { tx in
            guard let db = try ownerDatabase(shared, tx),
                  let entry = try tx.shareParticipants(zoneName: zoneName, dbID: db.id)
                    .first(where: { $0.userRecordName == request.userRecordName }) else {
                throw notSharedError(zoneName, recordID: nil)
            }
            if entry.accepted {
                _ = try markSharedZone(zoneName, owner: shared.sharedOwner ?? "", participant: request.userRecordName,
                                       live: false, listChanged: true, request: request.sharedDatabase, tx)
            }
            try tx.deleteShareParticipant(request.userRecordName, zoneName: zoneName, dbID: db.id)
        }
    }

    public func acceptedShares(zoneName: String?, in request: DatabaseRequest) throws(CloudError) -> [Share] {
        let base = request.sharedDatabase
        return try read { tx in
            guard let db = try findDatabase(base, tx) else { return [] }
            var out: [Share] = []
            for row in try tx.sharedZones(dbID: db.id) where row.live && (zoneName == nil || row.zoneName == zoneName) {
                let view = base.owned(by: row.owner)
                guard let ownerDB = try ownerDatabase(view, tx), let shareRow = try tx.share(zoneName: row.zoneName, dbID: ownerDB.id),
                      try sharedPermission(view, zoneName: row.zoneName, tx) != nil else { continue }
                out.append(try share(shareRow, owner: row.owner, request: request, dbID: ownerDB.id, tx))
            }
            return out
        }
    }

    public func userRecordName(ofAccount name: String, in request: DatabaseRequest) throws(CloudError) -> String? {
        try read { tx in
            guard let found = try tx.userRecordName(ofAccount: name) else { return nil }
            if found == request.userRecordName { return found }
            let related = try sharesWith(found, of: request.userRecordName, request: request, tx)
                || sharesWith(request.userRecordName, of: found, request: request, tx)
            return related ? found : nil
        }
    }

    /// True when `owner` has a share (in the request's container) listing `participant`,
    /// invited or accepted.
    func sharesWith(_ participant: String, of owner: String, request: DatabaseRequest,
                    _ tx: any CloudStorageTransaction) throws -> Bool {
        guard let db = try tx.findDatabase(container: request.storageContainer, scope: .private, owner: owner) else { return false }
        for share in try tx.shares(dbID: db.id)
        where try tx.shareParticipants(zoneName: share.zoneName, dbID: db.id).contains(where: { $0.userRecordName == participant }) {
            return true
        }
        return false
    }
}
