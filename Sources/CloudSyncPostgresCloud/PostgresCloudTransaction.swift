import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

/// The storage primitives of a PostgreSQL cloud inside one transaction of its connection:
/// accounts, databases and zones here; records, schema and assets in
/// `PostgresCloudTransaction+Records`; key-value stores, subscriptions and notification queues
/// in `PostgresCloudTransaction+AccountData`. Every statement is prepared (`queryPrepared`).
struct PostgresCloudTransaction: CloudStorageTransaction {
    let storage: PostgresCloudStorage
    let connection: PostgresConnection
    /// A write transaction: lookups that take the write lock read `FOR UPDATE`.
    let writing: Bool
    let savepoints = SavepointCounter()
    /// Rows read ahead and writes held back (write transactions only).
    let batch = PostgresRecordBatch()
    /// What locking a zone for writing learned about its shares and subscriptions.
    let zoneFacts = ZoneFacts()
    /// A modify call's first reads, made together (`expectModify`).
    let prefetched = Prefetched()
    /// Set for a read of one statement run without a transaction (`readOne`): a second
    /// statement is a bug, refused rather than run on another snapshot.
    var single: SingleStatement? = nil

    final class SingleStatement {
        var ran = false
    }

    /// Zones (database, name) that the writing zone look-up found without a share, or without
    /// a subscription concerning their changes: the share and subscription look-ups that follow
    /// a modify call then answer without a statement. Exact until commit, because a share or
    /// a subscription is written only under its database's row lock, which this transaction
    /// holds; forgotten when this transaction writes one itself.
    final class ZoneFacts {
        struct Key: Hashable {
            var dbID: Int64
            var zoneName: String
        }
        var unshared: Set<Key> = []
        var unsubscribed: Set<Key> = []
    }

    final class SavepointCounter {
        var next = 0
    }

    /// Runs one prepared statement, after the writes held back (so it sees them).
    @discardableResult
    func run(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresRows {
        if let single {
            guard !single.ran else { throw CloudError(.internalError, "a one-statement read ran a second statement") }
            single.ran = true
        }
        if !batch.isEmpty { try batch.flush(connection) }
        return try connection.queryPrepared(sql, parameters)
    }

    /// Sends the writes held back; the storage calls it before commit.
    func flush() throws {
        if !batch.isEmpty { try batch.flush(connection) }
    }

    /// A savepoint that is left open when `body` returns: COMMIT (or ROLLBACK) ends it with the
    /// transaction, so releasing it would only cost a round trip. Names are unique in the
    /// transaction, so a later savepoint simply nests inside it.
    func nested<T>(_ body: () throws -> T) throws -> T {
        savepoints.next += 1
        let name = "cloudsync_sp\(savepoints.next)"
        try flush()
        try connection.sendCommand("SAVEPOINT \(name)")
        let mark = connection.commitPreludeMark
        do {
            let value = try body()
            // Written inside the savepoint, so that a failure still rolls them back with it.
            try flush()
            return value
        } catch {
            // What the savepoint undoes: the queue and the rows read ahead inside it.
            batch.discard()
            // A write sent ahead inside the savepoint is undone with it, whether it landed or not.
            try? connection.awaitSent()
            try connection.execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
            connection.dropCommitPrelude(after: mark)
            throw error
        }
    }

    // MARK: Accounts

    func userRecordName(ofAccount name: String) throws -> String? {
        try run("SELECT user_record_name FROM accounts WHERE name=$1", [.text(name)]).first?[0].text
    }

    func insertAccountIfAbsent(name: String, userRecordName: String, now: Int64) throws {
        try run("INSERT INTO accounts(name, user_record_name, created_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                [.text(name), .text(userRecordName), .int64(now)])
    }

    // MARK: Databases

    /// In a write transaction this takes the database's write lock (`FOR UPDATE`), held to commit.
    func findDatabase(container: String, scope: DatabaseScope, owner: String) throws -> DatabaseRow? {
        if writing, let known = takePrefetchedDatabase(DatabaseWriteKey(container: container, scope: scope, owner: owner)) {
            return known
        }
        let sql = "SELECT db_id, seq FROM databases WHERE container=$1 AND scope=$2 AND owner=$3"
        let row = try run(writing ? Self.lockDatabaseSQL : sql, [.text(container), .text(scope.rawValue), .text(owner)]).first
        return try row.map { DatabaseRow(id: try $0.int64(0), seq: try $0.int64(1)) }
    }

    /// A concurrent creator wins: this one then waits for its commit and locks its row.
    func createDatabase(container: String, scope: DatabaseScope, owner: String, now: Int64) throws -> DatabaseRow {
        let inserted = try run("""
            INSERT INTO databases(container, scope, owner, seq) VALUES ($1, $2, $3, 0)
            ON CONFLICT DO NOTHING RETURNING db_id
            """, [.text(container), .text(scope.rawValue), .text(owner)]).first
        guard let id = inserted?[0].int64 else {
            guard let existing = try findDatabase(container: container, scope: scope, owner: owner) else {
                throw CloudError(.internalError, "database of \(container) vanished while being created")
            }
            return existing
        }
        try run("""
            INSERT INTO zones(db_id, name, atomic, seq, db_seq, created_ms) VALUES ($1, $2, false, 0, 0, $3)
            """, [.int64(id), .text(ZoneID.defaultZoneName), .int64(now)])
        return DatabaseRow(id: id, seq: 0)
    }

    func nextDatabaseSeq(_ dbID: Int64) throws -> Int64 {
        guard let seq = try run("UPDATE databases SET seq = seq + 1 WHERE db_id=$1 RETURNING seq", [.int64(dbID)]).first?[0].int64 else {
            throw CloudError(.internalError, "database \(dbID) vanished")
        }
        return seq
    }

    // MARK: Zones

    static func zoneRow(_ row: PostgresRow, name: String? = nil) throws -> ZoneRow {
        ZoneRow(id: try row.int64(0), name: try name ?? row.text(5), atomic: row[1].bool ?? false, seq: try row.int64(2),
                floorSeq: try row.int64(3), recordCount: Int(try row.int64(4)))
    }

    func findZone(_ name: String, dbID: Int64) throws -> ZoneRow? {
        guard writing else {
            return try run("SELECT zone_id, atomic, seq, floor_seq, record_count FROM zones WHERE db_id=$1 AND name=$2 AND deleted=0",
                           [.int64(dbID), .text(name)]).first.map { try Self.zoneRow($0, name: name) }
        }
        // The lock, and whether the zone is shared or concerns a subscription (`ZoneFacts`).
        if let known = takePrefetchedZone(name, dbID: dbID) {
            guard let row = known else { return nil }
            return try lockedZone(row, name: name, dbID: dbID)
        }
        guard let row = try run(Self.lockZoneByIDSQL, [.int64(dbID), .text(name)]).first else { return nil }
        return try lockedZone(row, name: name, dbID: dbID)
    }

    /// A zone row locked for writing, with what it tells of the zone's shares and subscriptions.
    private func lockedZone(_ row: PostgresRow, name: String, dbID: Int64) throws -> ZoneRow {
        let key = ZoneFacts.Key(dbID: dbID, zoneName: name)
        if row[5].bool == false { zoneFacts.unshared.insert(key) } else { zoneFacts.unshared.remove(key) }
        if row[6].bool == false { zoneFacts.unsubscribed.insert(key) } else { zoneFacts.unsubscribed.remove(key) }
        return try Self.zoneRow(row, name: name)
    }

    func deletedZoneReason(_ name: String, dbID: Int64) throws -> ZoneDeletionReason? {
        try run("SELECT deleted FROM zones WHERE db_id=$1 AND name=$2 AND deleted>0 ORDER BY db_seq DESC LIMIT 1",
                [.int64(dbID), .text(name)]).first.map { $0[0].int64 == 2 ? ZoneDeletionReason.purged : .deleted }
    }

    func liveZones(dbID: Int64) throws -> [ZoneRow] {
        try run("""
            SELECT zone_id, atomic, seq, floor_seq, record_count, name FROM zones
            WHERE db_id=$1 AND deleted=0 ORDER BY name<>'_defaultZone', name
            """, [.int64(dbID)]).rows.map { try Self.zoneRow($0) }
    }

    func createZone(_ name: String, atomic: Bool, dbID: Int64, dbSeq: Int64, now: Int64) throws -> ZoneRow {
        guard let id = try run("""
            INSERT INTO zones(db_id, name, atomic, seq, db_seq, created_ms) VALUES ($1, $2, $3, 0, $4, $5) RETURNING zone_id
            """, [.int64(dbID), .text(name), .bool(atomic), .int64(dbSeq), .int64(now)]).first?[0].int64 else {
            throw CloudError(.internalError, "zone '\(name)' was not created")
        }
        return ZoneRow(id: id, name: name, atomic: atomic, seq: 0, floorSeq: 0, recordCount: 0)
    }

    func deleteZone(_ zone: ZoneRow, dbID: Int64, purge: Bool, dbSeq: Int64) throws {
        try flush()
        batch.known.removeAll()
        try run("DELETE FROM records WHERE db_id=$1 AND zone_id=$2", [.int64(dbID), .int64(zone.id)])
        try run("DELETE FROM refs WHERE db_id=$1 AND zone_id=$2", [.int64(dbID), .int64(zone.id)])
        try run("UPDATE zones SET deleted=$1, db_seq=$2, record_count=0 WHERE db_id=$3 AND zone_id=$4",
                [.int64(purge ? 2 : 1), .int64(dbSeq), .int64(dbID), .int64(zone.id)])
    }

    func advanceZone(_ zone: ZoneRow, dbID: Int64, seq: Int64, dbSeq: Int64, countDelta: Int) throws {
        try run("UPDATE zones SET seq=$1, db_seq=$2, record_count=record_count+$3 WHERE db_id=$4 AND zone_id=$5",
                [.int64(seq), .int64(dbSeq), .int64(Int64(countDelta)), .int64(dbID), .int64(zone.id)])
    }

    /// One statement takes both counters (the rows are locked already, by `findDatabase` and
    /// `findZone`), and carries the zone's held-back record writes when they are all there is to
    /// send (the usual end of a modify call): one statement instead of three, sent ahead, so
    /// that it goes to the server with the COMMIT (or the next statement) in one round trip.
    func advanceZoneAndDatabase(_ zone: ZoneRow, dbID: Int64, seq: Int64, countDelta: Int) throws {
        if try batch.sendWithCounters(zone: zone.id, dbID: dbID, seq: seq, countDelta: countDelta, connection) { return }
        if !batch.isEmpty { try batch.flush(connection) }
        try connection.sendPrepared("""
            WITH d AS (UPDATE databases SET seq = seq + 1 WHERE db_id=$1 RETURNING seq)
            UPDATE zones SET seq=$2, db_seq=d.seq, record_count=record_count+$3 FROM d
            WHERE zones.db_id=$1 AND zones.zone_id=$4
            """, [.int64(dbID), .int64(seq), .int64(Int64(countDelta)), .int64(zone.id)], expectingRows: 1)
    }

    func zoneChanges(dbID: Int64, since: Int64, limit: Int) throws -> [ZoneChangeRow] {
        try run("""
            SELECT name, deleted, db_seq FROM zones
            WHERE db_id=$1 AND db_seq>$2 AND name<>'_defaultZone' ORDER BY db_seq LIMIT $3
            """, [.int64(dbID), .int64(since), .int64(Int64(limit))]).rows.map { row in
            let state = try row.int64(1)
            return ZoneChangeRow(name: try row.text(0), deletion: state == 0 ? nil : state == 2 ? .purged : .deleted,
                                 dbSeq: try row.int64(2))
        }
    }
}
