import CloudSyncCore

extension StorageBackedCloud {
    public func saveZones(_ zones: [ZoneSpec], in request: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        for spec in zones { try NameRules.validateZoneName(spec.name) }
        if request.scope != .private, zones.contains(where: { $0.name != ZoneID.defaultZoneName }) {
            throw CloudError(.invalidArguments,
                             "custom zones exist only in the private database, not in the \(request.scope.rawValue) database")
        }
        return try write { tx in
            let db = try ensureDatabase(request, tx)
            var result: [ZoneInfo] = []
            for spec in zones {
                if let existing = try tx.findZone(spec.name, dbID: db.id) {
                    result.append(info(existing, request: request))
                    continue
                }
                let dbSeq = try tx.nextDatabaseSeq(db.id)
                let row = try tx.createZone(spec.name, atomic: spec.atomic, dbID: db.id, dbSeq: dbSeq, now: clock())
                try enqueueZoneNotifications(zoneName: spec.name, dbID: db.id, request: request, deleted: false, tx)
                result.append(info(row, request: request))
            }
            return result
        }
    }

    public func fetchAllZones(in request: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        if request.scope == .shared { return try fetchSharedZones(in: request) }
        let db = try ensureDatabase(request)
        return try read { tx in try tx.liveZones(dbID: db.id) }.map { info($0, request: request) }
    }

    public func deleteZones(_ names: [String], purge: Bool, in request: DatabaseRequest) throws(CloudError) {
        if request.scope != .private {
            throw CloudError(.invalidArguments, "zones can be deleted only in the private database")
        }
        if names.contains(ZoneID.defaultZoneName) {
            throw CloudError(.invalidArguments, "_defaultZone cannot be deleted")
        }
        try write { tx in
            let db = try ensureDatabase(request, tx)
            for name in names {
                let zone = try requireZone(name, dbID: db.id, request: request, tx)
                try endShare(zoneName: name, dbID: db.id, request: request, tx)
                let dbSeq = try tx.nextDatabaseSeq(db.id)
                try tx.deleteZone(zone, dbID: db.id, purge: purge, dbSeq: dbSeq)
                try enqueueZoneNotifications(zoneName: name, dbID: db.id, request: request, deleted: true, tx)
            }
        }
    }
}
