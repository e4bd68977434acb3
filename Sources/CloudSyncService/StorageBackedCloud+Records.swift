import CloudSyncCore

extension StorageBackedCloud {
    // MARK: Modify

    public func modifyRecords(_ modify: ModifyRequest, in request: DatabaseRequest) throws(CloudError) -> ModifyResult {
        if request.scope == .shared {
            let ids = modify.saves.map(\.recordID) + modify.deletes
            let shared = try sharedRequest(request, owners: ids.map(\.zoneID.ownerRecordName))
            let zones = Set(ids.map(\.zoneID.zoneName))
            return try modifyRecords(modify, in: shared.ownerView, sharedCaller: shared, sharedZones: zones)
        }
        return try modifyRecords(modify, in: request, sharedCaller: nil, sharedZones: [])
    }

    /// `modifyRecords` on a database; `sharedCaller`: a participant's call on shared zones of
    /// the owner of `request` (its owner view), whose write permission is checked on
    /// `sharedZones` in the writing transaction.
    func modifyRecords(_ modify: ModifyRequest, in request: DatabaseRequest, sharedCaller: DatabaseRequest?,
                       sharedZones: Set<String>) throws(CloudError) -> ModifyResult {
        let total = modify.saves.count + modify.deletes.count
        guard total <= CloudLimits.maxRecordsPerModify else {
            throw CloudError(.limitExceeded,
                             "a modify call holds at most \(CloudLimits.maxRecordsPerModify) records, got \(total); split the batch")
        }
        var seen = Set<RecordID>(minimumCapacity: total)
        for id in modify.saves.map(\.recordID) + modify.deletes {
            let normalized = RecordID(recordName: id.recordName, zoneID: request.zoneID(id.zoneID.zoneName))
            guard seen.insert(normalized).inserted else {
                throw CloudError(.invalidArguments, "record '\(id.recordName)' appears twice in one modify call")
            }
        }
        // Group by zone, keeping the caller's order. A call's records usually share one zone:
        // each run of records in one zone costs one dictionary lookup, not each record.
        var zoneOrder: [String] = []
        var savesByZone: [String: [Record]] = [:]
        var deletesByZone: [String: [RecordID]] = [:]
        for (name, run) in StorageBackedCloud.zoneRuns(modify.saves, zone: \.recordID.zoneID.zoneName) {
            if savesByZone[name] == nil && deletesByZone[name] == nil { zoneOrder.append(name) }
            savesByZone[name, default: []].append(contentsOf: run)
        }
        for (name, run) in StorageBackedCloud.zoneRuns(modify.deletes, zone: \.zoneID.zoneName) {
            if savesByZone[name] == nil && deletesByZone[name] == nil { zoneOrder.append(name) }
            deletesByZone[name, default: []].append(contentsOf: run)
        }
        let confirmation = CredentialConfirmation.current
        return try write(database: databaseKey(request)) { tx in
            if let confirmation {
                confirmation.reset()
                try tx.expectCredentialInForce(id: confirmation.credentialID)
            }
            if sharedCaller == nil, zoneOrder.count == 1, let zoneName = zoneOrder.first {
                let names = (savesByZone[zoneName] ?? []).map(\.recordID.recordName) + (deletesByZone[zoneName] ?? []).map(\.recordName)
                try tx.expectModify(databaseKey(request), zone: zoneName, records: names)
            }
            // A check no first reads carried (several zones, a participant's call) is answered
            // now, before anything is locked or written: a token no longer in force must not
            // leave even an uncommitted schema field in this process's cache for others to meet.
            if confirmation != nil { try tx.settleCredentialCheck() }
            if let sharedCaller {
                for zoneName in sharedZones.sorted() { try requireSharedWrite(sharedCaller, zoneName: zoneName, tx) }
            }
            let db = try ensureDatabase(request, tx)
            var result = ModifyResult()
            var bytes: Int64 = 0
            for zoneName in zoneOrder {
                let saves = savesByZone[zoneName] ?? []
                let deletes = deletesByZone[zoneName] ?? []
                guard let zone = try tx.findZone(zoneName, dbID: db.id) else {
                    let error = try missingZoneError(zoneName, dbID: db.id, request: request, tx)
                    for id in saves.map(\.recordID) + deletes { result.errors[id] = error }
                    continue
                }
                try modifyZone(zone, dbID: db.id, saves: saves, deletes: deletes, policy: modify.policy,
                               encodedFields: modify.encodedFields, untypedFields: modify.untypedFields,
                               request: request, into: &result, bytes: &bytes, tx)
            }
            try charge(bytes, for: request, tx)
            confirmation?.confirm()
            return result
        }
    }

    /// `items` cut into runs of consecutive items in one zone, in order.
    static func zoneRuns<Item>(_ items: [Item], zone: (Item) -> String) -> [(String, ArraySlice<Item>)] {
        var runs: [(String, ArraySlice<Item>)] = []
        var start = 0
        while start < items.count {
            let name = zone(items[start])
            var end = start + 1
            while end < items.count && zone(items[end]) == name { end += 1 }
            runs.append((name, items[start..<end]))
            start = end
        }
        return runs
    }

    /// Thrown inside a zone's savepoint to roll back an atomic zone.
    struct AtomicRollback: Error {}

    func modifyZone(_ zone: ZoneRow, dbID: Int64, saves: [Record], deletes: [RecordID], policy: SavePolicy,
                    encodedFields: [RecordID: String] = [:], untypedFields: [RecordID: [String: JSONValue]] = [:],
                    request: DatabaseRequest, into result: inout ModifyResult, bytes: inout Int64,
                    _ tx: any CloudStorageTransaction) throws {
        var zoneResult = ModifyResult()
        var seq = zone.seq
        var countDelta = 0
        var zoneBytes: Int64 = 0
        let now = clock()
        let stamp = ChangeStamp(timestamp: now, userRecordName: request.userRecordName, deviceID: request.deviceID)
        // Only an atomic zone runs in a savepoint (undone when one record fails). A non-atomic
        // zone needs none: a record's own failure is thrown before anything of it is written and
        // is caught below as that record's error, and any other failure ends the whole
        // transaction; so the savepoint would never be rolled back (on PostgreSQL it cost two
        // round trips per zone).
        func inZoneScope(_ body: () throws -> Void) throws {
            if zone.atomic { try tx.nested(body) } else { try body() }
        }
        do {
            try inZoneScope {
                try tx.prepareRecords(saves.map(\.recordID.recordName) + deletes.map(\.recordName), zone: zone,
                                      dbID: dbID, zoneID: request.zoneID(zone.name))
                for record in saves {
                    do {
                        let saved = try saveRecord(record, zone: zone, dbID: dbID, policy: policy, stamp: stamp,
                                                   seq: &seq, countDelta: &countDelta, bytes: &zoneBytes, request: request,
                                                   encodedFields: encodedFields.isEmpty ? nil : encodedFields[record.recordID],
                                                   untypedFields: untypedFields.isEmpty ? nil : untypedFields[record.recordID], tx)
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
                                                       countDelta: &countDelta, bytes: &zoneBytes, request: request, tx)
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
                    try tx.advanceZoneAndDatabase(zone, dbID: dbID, seq: seq, countDelta: countDelta)
                    try enqueueRecordNotifications(zone: zone, dbID: dbID, request: request,
                                                   saved: zoneResult.saved, deleted: zoneResult.deleted, tx)
                    try announceSharedZoneChange(zone: zone, dbID: dbID, request: request,
                                                 saved: zoneResult.saved, deleted: zoneResult.deleted, tx)
                }
            }
        } catch is AtomicRollback {
            schemaCache.withLock { $0.removeAll() }
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
            zoneBytes = 0
        }
        bytes += zoneBytes
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
    /// `untypedFields`: fields given without a type, typed from the schema first (see
    /// `ModifyRequest.untypedFields`). `bytes` grows by the stored size the save adds (its
    /// fields' text, less the live version's).
    func saveRecord(_ record: Record, zone: ZoneRow, dbID: Int64, policy: SavePolicy, stamp: ChangeStamp,
                    seq: inout Int64, countDelta: inout Int, bytes: inout Int64, request: DatabaseRequest, probe: Bool = true,
                    encodedFields: String? = nil, untypedFields: [String: JSONValue]? = nil,
                    _ tx: any CloudStorageTransaction) throws -> Record {
        assert(encodedFields.map { (try? RecordJSON.decodeFields(bytes: Array($0.utf8))) == record.fields } ?? true,
               "encodedFields of \(record.recordID.recordName) are not its fields")
        var record = record
        if let untypedFields, !untypedFields.isEmpty { record = try typingUntypedFields(record, untypedFields, request, tx) }
        try ServiceRules.validateSave(record)
        try ServiceRules.refuseShareRecordChange(record.recordID.recordName, recordType: record.recordType, request: request)
        if request.scope == .public { try ServiceRules.validatePublicSave(record, caller: request.userRecordName) }
        let insertBlind = probe && policy == .ifServerRecordUnchanged && record.changeTag == nil
        let existing = insertBlind ? nil : try tx.loadRecord(record.recordID.recordName, zone: zone, dbID: dbID,
                                                             zoneID: request.zoneID(zone.name))
        let live = existing.flatMap { $0.deleted ? nil : $0 }
        let schema = try rulingSchema(request, tx)
        var fields = record.fields
        var merged = false
        var created = stamp
        if let live {
            if live.record.recordType != record.recordType {
                throw CloudError(.invalidArguments,
                                 "record '\(record.recordID.recordName)' is a \(live.record.recordType); its type cannot change to \(record.recordType)")
            }
            try requirePermission(.write, recordType: live.record.recordType, recordName: record.recordID.recordName,
                                  creator: live.record.system?.created.userRecordName, schema: schema, request)
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
        } else {
            try requirePermission(.create, recordType: record.recordType, recordName: record.recordID.recordName,
                                  creator: nil, schema: schema, request)
        }
        var stored = Record(recordID: RecordID(recordName: record.recordID.recordName, zoneID: request.zoneID(zone.name)),
                            recordType: record.recordType, fields: fields)
        try ServiceRules.validateSize(stored)
        try checkFields(record, fields: fields, schema: schema, request, tx)
        try checkAssets(record.fields, dbID: dbID, tx)
        seq += 1
        let tag = changeTag(zoneID: zone.id, seq: seq)
        let refs = deleteSelfTargets(fields, zone: zone)
        // A blind insert is OR IGNORE: a row of that name (live or tombstone) leaves it undone.
        let row = RecordWrite(name: record.recordID.recordName, type: record.recordType, seq: seq, changeTag: tag,
                              fieldsText: (merged ? nil : encodedFields) ?? RecordJSON.fieldsText(fields),
                              hasRefs: !refs.isEmpty, created: created, modified: stamp)
        if try !tx.writeRecord(row, zone: zone, dbID: dbID, ifAbsent: insertBlind) {
            seq -= 1
            return try saveRecord(record, zone: zone, dbID: dbID, policy: policy, stamp: stamp, seq: &seq,
                                  countDelta: &countDelta, bytes: &bytes, request: request, probe: false,
                                  encodedFields: encodedFields, tx)
        }
        bytes += Int64(row.fieldsText.utf8.count) - (live.map(Self.storedBytes) ?? 0)
        if existing?.hasRefs == true {
            try tx.removeReferences(from: record.recordID.recordName, zone: zone, dbID: dbID)
        }
        for target in refs {
            try tx.addReference(from: record.recordID.recordName, to: target, zone: zone, dbID: dbID)
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
                      countDelta: inout Int, bytes: inout Int64, request: DatabaseRequest,
                      _ tx: any CloudStorageTransaction) throws -> [String] {
        guard let existing = try tx.loadRecord(name, zone: zone, dbID: dbID, zoneID: request.zoneID(zone.name)),
              !existing.deleted else {
            throw CloudError(.unknownItem, "record '\(name)' does not exist in zone '\(zone.name)'")
        }
        try ServiceRules.refuseShareRecordChange(name, recordType: existing.record.recordType, request: request)
        if request.scope == .public {
            let schema = try rulingSchema(request, tx)
            if schema?.recordType(named: existing.record.recordType)?.declaresGrants == true {
                try requirePermission(.write, recordType: existing.record.recordType, recordName: name,
                                      creator: existing.record.system?.created.userRecordName, schema: schema, request)
            } else if existing.record.system?.created.userRecordName != request.userRecordName {
                throw CloudError(.permissionFailure, "record '\(name)' in the public database can be deleted only by its creator")
            }
        }
        seq += 1
        try tx.tombstoneRecord(name, zone: zone, dbID: dbID, seq: seq, stamp: stamp)
        if existing.hasRefs {
            try tx.removeReferences(from: name, zone: zone, dbID: dbID)
        }
        countDelta -= 1
        bytes -= Self.storedBytes(existing)
        return try tx.referenceSources(to: name, zone: zone, dbID: dbID)
    }

    /// Checks field types against the container's schema and records new fields
    /// (development environment: the schema grows on save).
    ///
    /// The cache is this process's view and may be stale: another process may have added a
    /// field since it was read. That is the normal case under concurrent saves, not an error: a
    /// field the cache lacks is inserted only if absent, and when another writer got there
    /// first its committed type is read back (inside this writer's transaction, so it is
    /// current) and checked like a cached one.
    func checkSchema(container: String, recordType: String, fields: [String: FieldValue],
                     _ tx: any CloudStorageTransaction) throws {
        let key = SchemaKey(container: container, recordType: recordType)
        var known: [String: FieldTypeName]
        if let cached = schemaCache.withLock({ $0[key] }) {
            known = cached
        } else {
            known = try tx.schemaFields(container: container, recordType: recordType)
            schemaCache.withLock { $0[key] = known }
        }
        var added = false
        var unknown: [(field: String, type: FieldTypeName)] = []
        for (field, value) in fields {
            let type = value.typeName
            if let existing = known[field] {
                guard existing == type else {
                    throw Self.fieldTypeMismatch(field, of: recordType, stored: existing, got: type)
                }
            } else {
                unknown.append((field, type))
            }
        }
        // New fields are inserted in name order: an insert waits for another writer's
        // uncommitted row of the same field, and two writers adding the same fields in different
        // orders (a dictionary's order is its own) would wait for each other until PostgreSQL's
        // deadlock check broke the tie a second later.
        unknown.sort { $0.field < $1.field }
        for (field, type) in unknown {
            let inserted = try tx.addSchemaFieldIfAbsent(container: container, recordType: recordType,
                                                         field: field, type: type)
            added = true
            guard !inserted else {
                known[field] = type
                continue
            }
            // Another process added the field after this one read the schema.
            let stored = try tx.schemaFieldType(container: container, recordType: recordType, field: field)
            guard let existing = stored.flatMap({ FieldTypeName($0) }) else {
                throw CloudError(.internalError, "the schema of \(recordType) holds an unreadable type for field '\(field)'")
            }
            known[field] = existing
            guard existing == type else {
                throw Self.fieldTypeMismatch(field, of: recordType, stored: existing, got: type)
            }
        }
        if added { schemaCache.withLock { $0[key] = known } }
    }

    /// The refusal of a value whose type differs from the field's in the schema.
    static func fieldTypeMismatch(_ field: String, of recordType: String, stored: FieldTypeName,
                                  got type: FieldTypeName) -> CloudError {
        CloudError(.invalidArguments, "field '\(field)' of \(recordType) is \(stored) in the schema; got \(type)")
    }

    // MARK: Fetch

    public func fetchRecords(_ ids: [RecordID], in request: DatabaseRequest) throws(CloudError) -> [RecordID: Result<Record, CloudError>] {
        if request.scope == .shared {
            let shared = try sharedRequest(request, owners: ids.map(\.zoneID.ownerRecordName))
            let readable = try read { tx in
                try Set(ids.map(\.zoneID.zoneName)).filter { try sharedPermission(shared, zoneName: $0, tx) != nil }
            }
            var result = try fetchRecords(ids.filter { readable.contains($0.zoneID.zoneName) }, in: shared.ownerView)
            for id in ids where !readable.contains(id.zoneID.zoneName) {
                result[id] = .failure(notSharedError(id.zoneID.zoneName, recordID: id))
            }
            return result
        }
        guard ids.count <= CloudLimits.maxRecordsPerModify else {
            throw CloudError(.limitExceeded, "fetch at most \(CloudLimits.maxRecordsPerModify) records at once, got \(ids.count)")
        }
        return try read { tx in
            var result: [RecordID: Result<Record, CloudError>] = [:]
            guard let db = try findDatabase(request, tx) else {
                for id in ids {
                    result[id] = .failure(CloudError(.zoneNotFound, "zone '\(id.zoneID.zoneName)' does not exist", recordID: id))
                }
                return result
            }
            var zones: [String: ZoneRow] = [:]
            let schema = try rulingSchema(request, tx)
            for id in ids {
                let name = id.zoneID.zoneName
                if zones[name] == nil, let zone = try tx.findZone(name, dbID: db.id) { zones[name] = zone }
                guard let zone = zones[name] else {
                    var error = try missingZoneError(name, dbID: db.id, request: request, tx)
                    error.recordID = id
                    result[id] = .failure(error)
                    continue
                }
                if let stored = try tx.loadRecord(id.recordName, zone: zone, dbID: db.id, zoneID: request.zoneID(name)),
                   !stored.deleted {
                    guard mayRead(stored.record, schema: schema, request) else {
                        result[id] = .failure(CloudError(
                            .permissionFailure,
                            "record '\(id.recordName)' cannot be read: the schema grants you no READ on \(stored.record.recordType)",
                            recordID: id))
                        continue
                    }
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
