import CloudSyncCore
import CloudSyncSQLite

extension SQLiteCloud {
    public func saveZones(_ zones: [ZoneSpec], in request: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        for spec in zones { try NameRules.validateZoneName(spec.name) }
        if request.scope != .private, zones.contains(where: { $0.name != ZoneID.defaultZoneName }) {
            throw CloudError(.invalidArguments,
                             "custom zones exist only in the private database, not in the \(request.scope.rawValue) database")
        }
        return try guarded {
            try connection.transaction(.immediate) {
                let db = try ensureDatabase(request)
                var result: [ZoneInfo] = []
                for spec in zones {
                    if let existing = try findZone(spec.name, dbID: db.id) {
                        result.append(info(existing, request: request))
                        continue
                    }
                    let dbSeq = try nextDatabaseSeq(db.id)
                    try connection.run("""
                        INSERT INTO zones(db_id, name, atomic, seq, db_seq, created_ms) VALUES (?, ?, ?, 0, ?, ?)
                        """, db.id, spec.name, spec.atomic, dbSeq, clock())
                    let row = ZoneRow(id: connection.lastInsertRowID, name: spec.name, atomic: spec.atomic, seq: 0,
                                      floorSeq: 0, recordCount: 0)
                    try enqueueZoneNotifications(zoneName: spec.name, dbID: db.id, request: request, deleted: false)
                    result.append(info(row, request: request))
                }
                return result
            }
        }
    }

    public func fetchAllZones(in request: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        try guarded {
            let db = try ensureDatabase(request)
            return try connection.query("""
                SELECT zone_id, name, atomic, seq, floor_seq, record_count FROM zones
                WHERE db_id=? AND deleted=0 ORDER BY name<>'_defaultZone', name
                """, [db.id]) {
                ZoneRow(id: $0.int64(0), name: $0.string(1), atomic: $0.bool(2), seq: $0.int64(3),
                        floorSeq: $0.int64(4), recordCount: $0.int(5))
            }.map { info($0, request: request) }
        }
    }

    public func deleteZones(_ names: [String], purge: Bool, in request: DatabaseRequest) throws(CloudError) {
        if request.scope != .private {
            throw CloudError(.invalidArguments, "zones can be deleted only in the private database")
        }
        if names.contains(ZoneID.defaultZoneName) {
            throw CloudError(.invalidArguments, "_defaultZone cannot be deleted")
        }
        try guarded {
            try connection.transaction(.immediate) {
                let db = try ensureDatabase(request)
                for name in names {
                    let zone = try requireZone(name, dbID: db.id, request: request)
                    try connection.run("DELETE FROM records WHERE db_id=? AND zone_id=?", db.id, zone.id)
                    try connection.run("DELETE FROM refs WHERE db_id=? AND zone_id=?", db.id, zone.id)
                    let dbSeq = try nextDatabaseSeq(db.id)
                    try connection.run("UPDATE zones SET deleted=?, db_seq=?, record_count=0 WHERE zone_id=?",
                                       purge ? 2 : 1, dbSeq, zone.id)
                    try enqueueZoneNotifications(zoneName: name, dbID: db.id, request: request, deleted: true)
                }
            }
        }
    }
}
