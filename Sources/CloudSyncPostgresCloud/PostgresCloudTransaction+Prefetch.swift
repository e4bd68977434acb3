import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

/// A modify call's first reads in one round trip (`expectModify`): the database row locked, the
/// zone row locked and the named records, sent together (with the transaction's BEGIN); the
/// `findDatabase`, `findZone` and `prepareRecords` of the call then answer from them.
extension PostgresCloudTransaction {
    /// What `expectModify` read, each part taken by the look-up it answers (once).
    final class Prefetched {
        var database: (key: DatabaseWriteKey, row: DatabaseRow?)?
        var zone: (dbID: Int64, name: String, row: PostgresRow?)?
        var records: (dbID: Int64, zoneName: String, names: [String], rows: [PostgresRow])?
        /// The credential `expectCredentialInForce` named, its check not sent yet.
        var credential: String?
    }

    /// Sends the check with the transaction's next reads (`expectModify`), or with
    /// `settleCredentialCheck`: a cached token's request costs no round trip of its own.
    func expectCredentialInForce(id: String) throws {
        guard writing else { return try CredentialConfirmation.requireInForce(credential(id: id), id: id) }
        prefetched.credential = id
    }

    func settleCredentialCheck() throws {
        guard let id = prefetched.credential else { return }
        prefetched.credential = nil
        try CredentialConfirmation.requireInForce(credential(id: id), id: id)
    }

    func expectModify(_ database: DatabaseWriteKey, zone: String, records: [String]) throws {
        guard writing, !records.isEmpty else { return }
        if !batch.isEmpty { try batch.flush(connection) }
        let key: [PostgresValue] = [.text(database.container), .text(database.scope.rawValue), .text(database.owner)]
        let credential = prefetched.credential
        prefetched.credential = nil
        var answers = try connection.queryPreparedTogether(
            (credential.map { [(Self.credentialByIDSQL, [PostgresValue.text($0)])] } ?? []) + [
            (Self.lockDatabaseSQL, key),
            (Self.lockZoneByNameSQL, key + [.text(zone)]),
            records.count == 1 ? (Self.recordByZoneNameSQL, key + [.text(zone), .text(records[0])])
                : (Self.recordsByZoneNameSQL, key + [.text(zone), try .textArray(records)]),
        ])
        // Answered before anything is written: a credential no longer in force writes nothing.
        if let credential {
            try CredentialConfirmation.requireInForce(answers.removeFirst().first.map(Self.credentialRow), id: credential)
        }
        guard let db = try answers[0].first.map({ DatabaseRow(id: try $0.int64(0), seq: try $0.int64(1)) }) else {
            // A database made by this call: the zone and records are looked up after it.
            prefetched.database = (database, nil)
            return
        }
        prefetched.database = (database, db)
        prefetched.zone = (db.id, zone, answers[1].first)
        if answers[1].first != nil { prefetched.records = (db.id, zone, records, answers[2].rows) }
    }

    /// The database row `expectModify` read for this key, if it was read and not taken yet.
    func takePrefetchedDatabase(_ key: DatabaseWriteKey) -> DatabaseRow?? {
        guard let database = prefetched.database, database.key == key else { return nil }
        prefetched.database = nil
        return .some(database.row)
    }

    /// The zone row (or its absence) `expectModify` read, if it was read and not taken yet.
    func takePrefetchedZone(_ name: String, dbID: Int64) -> PostgresRow?? {
        guard let zone = prefetched.zone, zone.dbID == dbID, zone.name == name else { return nil }
        prefetched.zone = nil
        return .some(zone.row)
    }

    /// The record rows `expectModify` read for exactly these names, if not taken yet.
    func takePrefetchedRecords(_ names: [String], zoneName: String, dbID: Int64) -> [PostgresRow]? {
        guard let records = prefetched.records, records.dbID == dbID, records.zoneName == zoneName,
              records.names == names else { return nil }
        prefetched.records = nil
        return records.rows
    }

    static let lockDatabaseSQL = "SELECT db_id, seq FROM databases WHERE container=$1 AND scope=$2 AND owner=$3 FOR UPDATE"

    /// A database's ID by its key ($1–$3), as a subquery.
    static let databaseIDByKey = "(SELECT db_id FROM databases WHERE container=$1 AND scope=$2 AND owner=$3)"

    /// The live zone named `name` of the database `dbID` (SQL expressions), locked, with
    /// whether it is shared and whether a subscription concerns its changes (`ZoneFacts`).
    static func lockZoneSQL(dbID: String, name: String) -> String {
        """
        SELECT z.zone_id, z.atomic, z.seq, z.floor_seq, z.record_count,
            EXISTS(SELECT 1 FROM shares s WHERE s.db_id=z.db_id AND s.zone_name=\(name)),
            EXISTS(SELECT 1 FROM subscriptions s WHERE s.db_id=z.db_id
                   AND (s.kind='database' OR s.zone_name=\(name) OR (s.kind='query' AND s.zone_name IS NULL)))
        FROM zones z WHERE z.db_id=\(dbID) AND z.name=\(name) AND z.deleted=0 FOR UPDATE OF z
        """
    }

    /// `findZone`'s writing look-up: database $1, zone $2.
    static let lockZoneByIDSQL = lockZoneSQL(dbID: "$1", name: "$2")

    /// The same with the database found by its key ($1–$3), the zone by name ($4).
    static let lockZoneByNameSQL = lockZoneSQL(dbID: databaseIDByKey, name: "$4")

    /// `prepareRecords`'s look-up, the database and the live zone found by key and name.
    static let recordsByZoneNameSQL = recordsByZoneName("name = ANY($5::text[])")

    /// The same for one name. A prepared statement's generic plan estimates `= ANY($5)` at ten
    /// names, so PostgreSQL kept planning the statement for each call (about a fifth of a
    /// one-record save's server time); with `name = $5` the generic plan is used.
    static let recordByZoneNameSQL = recordsByZoneName("name = $5")

    private static func recordsByZoneName(_ match: String) -> String {
        """
        SELECT \(recordColumns) FROM records
        WHERE db_id=\(databaseIDByKey)
            AND zone_id=(SELECT zone_id FROM zones WHERE db_id=\(databaseIDByKey) AND name=$4 AND deleted=0)
            AND \(match)
        """
    }
}
