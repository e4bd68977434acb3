import CloudSyncCore
import CloudSyncSQLite

extension SQLiteCloud {
    /// Columns read for a full record, in the order `decodeRecord` expects.
    static let recordColumns = """
        name, type, change_tag, fields, created_ms, created_user, created_device, \
        modified_ms, modified_user, modified_device, seq, deleted, has_refs
        """

    /// What a record row holds.
    struct StoredRecord {
        var record: Record
        var seq: Int64
        var deleted: Bool
        var hasRefs: Bool
        /// The fields column as stored (nil for a tombstone), when asked for.
        var fieldsText: String? = nil
    }

    /// `keepingText`: also keep the fields column's text (for fetched changes).
    func decodeRow(_ row: Statement, zoneID: ZoneID, keepingText: Bool = false) throws -> StoredRecord {
        let recordID = RecordID(recordName: row.string(0), zoneID: zoneID)
        let deleted = row.bool(11)
        var fields: [String: FieldValue] = [:]
        var text: String?
        if !deleted, !row.isNull(3) {
            let bytes = row.withBytes(3) { Array($0) }
            fields = try RecordJSON.decodeFields(bytes: bytes)
            if keepingText { text = String(decoding: bytes, as: UTF8.self) }
        }
        let system = SystemFields(
            changeTag: row.optionalString(2) ?? "",
            created: ChangeStamp(timestamp: row.int64(4), userRecordName: row.string(5), deviceID: row.string(6)),
            modified: ChangeStamp(timestamp: row.int64(7), userRecordName: row.string(8), deviceID: row.string(9)))
        return StoredRecord(record: Record(recordID: recordID, recordType: row.string(1), fields: fields, system: system),
                            seq: row.int64(10), deleted: deleted, hasRefs: row.bool(12), fieldsText: text)
    }

    func loadRecord(_ name: String, zone: ZoneRow, dbID: Int64, request: DatabaseRequest) throws -> StoredRecord? {
        try connection.queryOne("SELECT \(SQLiteCloud.recordColumns) FROM records WHERE db_id=? AND zone_id=? AND name=?",
                                [dbID, zone.id, name]) { try decodeRow($0, zoneID: request.zoneID(zone.name)) }
    }

    // MARK: Modify

    public func modifyRecords(_ modify: ModifyRequest, in request: DatabaseRequest) throws(CloudError) -> ModifyResult {
        let total = modify.saves.count + modify.deletes.count
        guard total <= CloudLimits.maxRecordsPerModify else {
            throw CloudError(.limitExceeded,
                             "a modify call holds at most \(CloudLimits.maxRecordsPerModify) records, got \(total); split the batch")
        }
        var seen = Set<RecordID>()
        for id in modify.saves.map(\.recordID) + modify.deletes {
            let normalized = RecordID(recordName: id.recordName, zoneID: request.zoneID(id.zoneID.zoneName))
            guard seen.insert(normalized).inserted else {
                throw CloudError(.invalidArguments, "record '\(id.recordName)' appears twice in one modify call")
            }
        }
        if request.scope == .shared {
            throw CloudError(.zoneNotFound, "the shared database has no zones until another user shares one")
        }
        // Group by zone, keeping the caller's order.
        var zoneOrder: [String] = []
        var savesByZone: [String: [Record]] = [:]
        var deletesByZone: [String: [RecordID]] = [:]
        for record in modify.saves {
            let name = record.recordID.zoneID.zoneName
            if savesByZone[name] == nil && deletesByZone[name] == nil { zoneOrder.append(name) }
            savesByZone[name, default: []].append(record)
        }
        for id in modify.deletes {
            let name = id.zoneID.zoneName
            if savesByZone[name] == nil && deletesByZone[name] == nil { zoneOrder.append(name) }
            deletesByZone[name, default: []].append(id)
        }
        return try guarded {
            try connection.transaction(.immediate) {
                let db = try ensureDatabase(request)
                var result = ModifyResult()
                for zoneName in zoneOrder {
                    let saves = savesByZone[zoneName] ?? []
                    let deletes = deletesByZone[zoneName] ?? []
                    guard let zone = try findZone(zoneName, dbID: db.id) else {
                        let error = try missingZoneError(zoneName, dbID: db.id, request: request)
                        for id in saves.map(\.recordID) + deletes { result.errors[id] = error }
                        continue
                    }
                    try modifyZone(zone, dbID: db.id, saves: saves, deletes: deletes, policy: modify.policy,
                                   encodedFields: modify.encodedFields, request: request, into: &result)
                }
                return result
            }
        }
    }

    /// Thrown inside a zone's savepoint to roll back an atomic zone.
    struct AtomicRollback: Error {}

    func modifyZone(_ zone: ZoneRow, dbID: Int64, saves: [Record], deletes: [RecordID], policy: SavePolicy,
                    encodedFields: [RecordID: String] = [:], request: DatabaseRequest, into result: inout ModifyResult) throws {
        var zoneResult = ModifyResult()
        var seq = zone.seq
        var countDelta = 0
        let now = clock()
        let stamp = ChangeStamp(timestamp: now, userRecordName: request.userRecordName, deviceID: request.deviceID)
        do {
            try connection.transaction {
                for record in saves {
                    do {
                        let saved = try saveRecord(record, zone: zone, dbID: dbID, policy: policy, stamp: stamp,
                                                   seq: &seq, countDelta: &countDelta, request: request,
                                                   encodedFields: encodedFields.isEmpty ? nil : encodedFields[record.recordID])
                        zoneResult.saved.append(saved)
                    } catch let error as CloudError {
                        var error = error
                        error.recordID = record.recordID
                        zoneResult.errors[record.recordID] = error
                    }
                }
                var queue = deletes
                var deletedHere = Set<String>()
                var index = 0
                while index < queue.count {
                    let id = queue[index]
                    let cascaded = index >= deletes.count
                    index += 1
                    guard deletedHere.insert(id.recordName).inserted else { continue }
                    do {
                        let targets = try deleteRecord(id.recordName, zone: zone, dbID: dbID, stamp: stamp, seq: &seq,
                                                       countDelta: &countDelta, request: request)
                        zoneResult.deleted.append(request.zoneID(zone.name) == id.zoneID ? id
                                                  : RecordID(recordName: id.recordName, zoneID: request.zoneID(zone.name)))
                        for source in targets where !deletedHere.contains(source) {
                            queue.append(RecordID(recordName: source, zoneID: request.zoneID(zone.name)))
                        }
                    } catch let error as CloudError {
                        if cascaded { continue }
                        var error = error
                        error.recordID = id
                        zoneResult.errors[id] = error
                    }
                }
                if zone.atomic && !zoneResult.errors.isEmpty { throw AtomicRollback() }
                if seq != zone.seq {
                    let dbSeq = try nextDatabaseSeq(dbID)
                    try connection.run("UPDATE zones SET seq=?, db_seq=?, record_count=record_count+? WHERE zone_id=?",
                                       seq, dbSeq, countDelta, zone.id)
                    try enqueueRecordNotifications(zone: zone, dbID: dbID, request: request,
                                                   saved: zoneResult.saved, deleted: zoneResult.deleted)
                }
            }
        } catch is AtomicRollback {
            schemaCache.removeAll()
            for record in saves where zoneResult.errors[record.recordID] == nil {
                zoneResult.errors[record.recordID] = CloudError(
                    .batchRequestFailed, "not saved: another record in atomic zone '\(zone.name)' failed",
                    recordID: record.recordID)
            }
            for id in deletes where zoneResult.errors[id] == nil {
                zoneResult.errors[id] = CloudError(
                    .batchRequestFailed, "not deleted: another record in atomic zone '\(zone.name)' failed", recordID: id)
            }
            zoneResult.saved = []
            zoneResult.deleted = []
        }
        result.saved += zoneResult.saved
        result.deleted += zoneResult.deleted
        result.errors.merge(zoneResult.errors) { first, _ in first }
    }

    /// Saves one record; throws a per-item `CloudError`.
    ///
    /// A record saved without a change tag under `ifServerRecordUnchanged` is a creation: it is
    /// inserted without reading first (one b-tree descent instead of two); only when a row of
    /// that name exists (a live record: conflict; a tombstone: re-creation) is it read and saved
    /// the general way (`probe: false`).
    ///
    /// `encodedFields`: the record's fields as stored text, when the caller had them (see
    /// `ModifyRequest.encodedFields`); stored as they are unless the fields were merged.
    func saveRecord(_ record: Record, zone: ZoneRow, dbID: Int64, policy: SavePolicy, stamp: ChangeStamp,
                    seq: inout Int64, countDelta: inout Int, request: DatabaseRequest, probe: Bool = true,
                    encodedFields: String? = nil) throws -> Record {
        assert(encodedFields.map { (try? RecordJSON.decodeFields(bytes: Array($0.utf8))) == record.fields } ?? true,
               "encodedFields of \(record.recordID.recordName) are not its fields")
        try ServiceRules.validateSave(record)
        let insertBlind = probe && policy == .ifServerRecordUnchanged && record.changeTag == nil
        let existing = insertBlind ? nil : try loadRecord(record.recordID.recordName, zone: zone, dbID: dbID, request: request)
        let live = existing.flatMap { $0.deleted ? nil : $0 }
        var fields = record.fields
        var merged = false
        var created = stamp
        if let live {
            if live.record.recordType != record.recordType {
                throw CloudError(.invalidArguments,
                                 "record '\(record.recordID.recordName)' is a \(live.record.recordType); its type cannot change to \(record.recordType)")
            }
            if request.scope == .public, live.record.system?.created.userRecordName != request.userRecordName {
                throw CloudError(.permissionFailure,
                                 "record '\(record.recordID.recordName)' in the public database can be changed only by its creator")
            }
            switch policy {
            case .ifServerRecordUnchanged:
                let serverTag = live.record.changeTag ?? ""
                guard let clientTag = record.changeTag, clientTag == serverTag else {
                    throw CloudError(.serverRecordChanged,
                                     record.changeTag == nil
                                        ? "record '\(record.recordID.recordName)' already exists (change tag \(serverTag)); fetch it or save with its change tag"
                                        : "record '\(record.recordID.recordName)' changed on the server (change tag \(serverTag), you had \(record.changeTag ?? ""))",
                                     serverRecord: live.record)
                }
            case .changedKeys:
                fields = live.record.fields.merging(record.fields) { _, new in new }
                merged = true
            case .allKeys:
                break
            }
            created = live.record.system?.created ?? stamp
        } else if policy == .ifServerRecordUnchanged, record.changeTag != nil {
            throw CloudError(.unknownItem, "record '\(record.recordID.recordName)' no longer exists on the server")
        }
        var stored = Record(recordID: RecordID(recordName: record.recordID.recordName, zoneID: request.zoneID(zone.name)),
                            recordType: record.recordType, fields: fields)
        try ServiceRules.validateSize(stored)
        try checkSchema(container: request.container, recordType: record.recordType, fields: fields)
        try checkAssets(record.fields, dbID: dbID)
        seq += 1
        let tag = changeTag(zoneID: zone.id, seq: seq)
        let refs = deleteSelfTargets(fields, zone: zone)
        // A blind insert is OR IGNORE: a row of that name (live or tombstone) leaves it undone.
        try connection.run("""
            INSERT \(insertBlind ? "OR IGNORE" : "OR REPLACE") INTO records(db_id, zone_id, name, type, seq, change_tag, deleted,
                fields, has_refs, created_ms, created_user, created_device, modified_ms, modified_user, modified_device)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)
            """, dbID, zone.id, record.recordID.recordName, record.recordType, seq, tag,
            (merged ? nil : encodedFields) ?? RecordJSON.fieldsText(fields), !refs.isEmpty,
            created.timestamp, created.userRecordName, created.deviceID,
            stamp.timestamp, stamp.userRecordName, stamp.deviceID)
        if insertBlind && connection.changes == 0 {
            seq -= 1
            return try saveRecord(record, zone: zone, dbID: dbID, policy: policy, stamp: stamp, seq: &seq,
                                  countDelta: &countDelta, request: request, probe: false, encodedFields: encodedFields)
        }
        if existing?.hasRefs == true {
            try connection.run("DELETE FROM refs WHERE db_id=? AND zone_id=? AND source=?", dbID, zone.id, record.recordID.recordName)
        }
        for target in refs {
            try connection.run("INSERT OR IGNORE INTO refs(db_id, zone_id, target, source) VALUES (?, ?, ?, ?)",
                               dbID, zone.id, target, record.recordID.recordName)
        }
        if live == nil { countDelta += 1 }
        stored.system = SystemFields(changeTag: tag, created: created, modified: stamp)
        return stored
    }

    /// Record names in the same zone that `fields` reference with DELETE_SELF.
    func deleteSelfTargets(_ fields: [String: FieldValue], zone: ZoneRow) -> Set<String> {
        var targets = Set<String>()
        func visit(_ value: FieldValue) {
            switch value {
            case .reference(let r) where r.action == .deleteSelf && r.recordID.zoneID.zoneName == zone.name:
                targets.insert(r.recordID.recordName)
            case .list(_, let items): items.forEach(visit)
            default: break
            }
        }
        fields.values.forEach(visit)
        return targets
    }

    /// Deletes one record, leaving a tombstone. Returns the records that reference it with
    /// DELETE_SELF, to be deleted in turn.
    func deleteRecord(_ name: String, zone: ZoneRow, dbID: Int64, stamp: ChangeStamp, seq: inout Int64,
                      countDelta: inout Int, request: DatabaseRequest) throws -> [String] {
        guard let existing = try loadRecord(name, zone: zone, dbID: dbID, request: request), !existing.deleted else {
            throw CloudError(.unknownItem, "record '\(name)' does not exist in zone '\(zone.name)'")
        }
        if request.scope == .public, existing.record.system?.created.userRecordName != request.userRecordName {
            throw CloudError(.permissionFailure, "record '\(name)' in the public database can be deleted only by its creator")
        }
        seq += 1
        try connection.run("""
            UPDATE records SET deleted=1, seq=?, change_tag=NULL, fields=NULL, has_refs=0,
                modified_ms=?, modified_user=?, modified_device=?
            WHERE db_id=? AND zone_id=? AND name=?
            """, seq, stamp.timestamp, stamp.userRecordName, stamp.deviceID, dbID, zone.id, name)
        if existing.hasRefs {
            try connection.run("DELETE FROM refs WHERE db_id=? AND zone_id=? AND source=?", dbID, zone.id, name)
        }
        countDelta -= 1
        return try connection.query("SELECT source FROM refs WHERE db_id=? AND zone_id=? AND target=?",
                                    [dbID, zone.id, name]) { $0.string(0) }
    }

    /// Checks field types against the container's schema and records new fields
    /// (development environment: the schema grows on save).
    ///
    /// The cache is this process's view and may be stale: another process may have added a
    /// field since it was read. That is the normal case under concurrent saves, not an error: a
    /// field the cache lacks is inserted only if absent, and when another writer got there
    /// first its committed type is read back (inside this writer's transaction, so it is
    /// current) and checked like a cached one.
    func checkSchema(container: String, recordType: String, fields: [String: FieldValue]) throws {
        let key = SchemaKey(container: container, recordType: recordType)
        var known: [String: FieldTypeName]
        if let cached = schemaCache[key] {
            known = cached
        } else {
            known = [:]
            for (field, type) in try connection.query(
                "SELECT field, type FROM schema_fields WHERE container=? AND record_type=?", [container, recordType],
                { ($0.string(0), $0.string(1)) }) {
                if let parsed = FieldTypeName(type) { known[field] = parsed }
            }
            schemaCache[key] = known
        }
        var added = false
        for (field, value) in fields {
            let type = value.typeName
            if let existing = known[field] {
                guard existing == type else {
                    throw CloudError(.invalidArguments,
                                     "field '\(field)' of \(recordType) is \(existing) in the schema; got \(type)")
                }
            } else {
                try connection.run("""
                    INSERT INTO schema_fields(container, record_type, field, type) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """, container, recordType, field, type.description)
                added = true
                guard connection.changes == 0 else {
                    known[field] = type
                    continue
                }
                // Another process added the field after this one read the schema.
                let stored = try connection.queryOne(
                    "SELECT type FROM schema_fields WHERE container=? AND record_type=? AND field=?",
                    [container, recordType, field]) { FieldTypeName($0.string(0)) }
                guard let existing = stored ?? nil else {
                    throw CloudError(.internalError, "the schema of \(recordType) holds an unreadable type for field '\(field)'")
                }
                known[field] = existing
                guard existing == type else {
                    throw CloudError(.invalidArguments,
                                     "field '\(field)' of \(recordType) is \(existing) in the schema; got \(type)")
                }
            }
        }
        if added { schemaCache[key] = known }
    }

    // MARK: Fetch

    public func fetchRecords(_ ids: [RecordID], in request: DatabaseRequest) throws(CloudError) -> [RecordID: Result<Record, CloudError>] {
        guard ids.count <= CloudLimits.maxRecordsPerModify else {
            throw CloudError(.limitExceeded, "fetch at most \(CloudLimits.maxRecordsPerModify) records at once, got \(ids.count)")
        }
        return try guarded {
            try connection.transaction(.deferred) {
                var result: [RecordID: Result<Record, CloudError>] = [:]
                guard let db = try findDatabase(request) else {
                    for id in ids {
                        result[id] = .failure(CloudError(.zoneNotFound, "zone '\(id.zoneID.zoneName)' does not exist", recordID: id))
                    }
                    return result
                }
                var zones: [String: ZoneRow] = [:]
                for id in ids {
                    let name = id.zoneID.zoneName
                    if zones[name] == nil, let zone = try findZone(name, dbID: db.id) { zones[name] = zone }
                    guard let zone = zones[name] else {
                        var error = try missingZoneError(name, dbID: db.id, request: request)
                        error.recordID = id
                        result[id] = .failure(error)
                        continue
                    }
                    if let stored = try loadRecord(id.recordName, zone: zone, dbID: db.id, request: request), !stored.deleted {
                        result[id] = .success(stored.record)
                    } else {
                        result[id] = .failure(CloudError(.unknownItem, "record '\(id.recordName)' not found in zone '\(name)'",
                                                         recordID: id))
                    }
                }
                return result
            }
        }
    }
}
