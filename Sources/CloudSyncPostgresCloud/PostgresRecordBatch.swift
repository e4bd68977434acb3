import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

/// The record rows one write transaction read ahead and the record and reference writes it holds
/// back, so that a modify call of N records costs a few round trips instead of N or more.
///
/// `prepareRecords` reads every named row of the call in one statement; `loadRecord` then
/// answers from it, and a blind insert (`ifAbsent`) of a name known absent, or any replacing
/// write, is queued instead of sent. The queue goes out as one `INSERT … SELECT FROM unnest(…)`
/// (and one for the DELETE_SELF edges) before the transaction's next other statement, before a
/// savepoint ends and before commit, so every statement sees the writes made before it, in
/// order. A long queue is sent ahead every `sendAheadRows` records, its answer read by the
/// next statement, so the server inserts while the service prepares the rest of the call. That it is safe: the writer holds its database's row lock (`findDatabase … FOR
/// UPDATE`) from its first statement, so no other transaction changes these rows meanwhile, and
/// the counters are still taken under that lock after the rows are written: commits stay in
/// counter order.
final class PostgresRecordBatch {
    struct Key: Hashable {
        var dbID: Int64
        var zoneID: Int64
        var name: String
    }

    struct PendingRecord {
        var dbID: Int64
        var zoneID: Int64
        var row: RecordWrite
        /// Read ahead as absent (under the database's lock): a plain insert lands it.
        var absent: Bool
    }

    struct PendingReference: Hashable {
        var dbID: Int64
        var zoneID: Int64
        var source: String
        var target: String
    }

    /// Rows read ahead and not written since: `.some(nil)` is known absent.
    var known: [Key: StoredRecord?] = [:]
    /// Record writes not sent yet, at most one per name.
    var pending: [PendingRecord] = []
    var pendingNames: Set<Key> = []
    /// DELETE_SELF edges not inserted yet.
    var pendingReferences: [PendingReference] = []

    var isEmpty: Bool { pending.isEmpty && pendingReferences.isEmpty }
    /// Record rows this transaction wrote in batches (the storage then sees whether the
    /// table's statistics need refreshing).
    var writtenRows = 0

    /// Forgets the queue and what was read ahead (a savepoint rolled back).
    func discard() {
        known.removeAll()
        pending.removeAll()
        pendingNames.removeAll()
        pendingReferences.removeAll()
    }

    /// Sends the queued writes, one statement for the records and one for the edges.
    func flush(_ connection: PostgresConnection) throws {
        for group in takePendingByZone() { try insertRecords(group, connection) }
        if !pendingReferences.isEmpty {
            let references = pendingReferences
            pendingReferences.removeAll()
            for group in Dictionary(grouping: references, by: { [$0.dbID, $0.zoneID] }).values {
                try connection.queryPrepared("""
                    INSERT INTO refs(db_id, zone_id, target, source)
                    SELECT $1, $2, u.target, u.source FROM unnest($3::text[], $4::text[]) AS u(target, source)
                    ON CONFLICT DO NOTHING
                    """, [.int64(group[0].dbID), .int64(group[0].zoneID), PostgresValue.textArray(group.map(\.target)),
                          PostgresValue.textArray(group.map(\.source))])
            }
        }
    }

    /// The queued record writes that are sent ahead (`sendAhead`) while a modify call goes on.
    static let sendAheadRows = 128

    /// Sends the queued record writes without waiting for the server (see
    /// `PostgresConnection.sendPrepared`): it inserts them while the service checks and encodes
    /// the next records of the call, instead of taking every row of the call after the last one
    /// was ready. The answer is read before the transaction's next statement, so every statement
    /// still sees these writes, and a row that did not land fails the transaction there.
    func sendAhead(_ connection: PostgresConnection) throws {
        for group in takePendingByZone() {
            try connection.sendPrepared(Self.insertSQL(group), try Self.insertParameters(group), expectingRows: group.count)
            writtenRows += group.count
        }
    }

    /// The queued record writes, one group per zone, taken off the queue.
    private func takePendingByZone() -> [[PendingRecord]] {
        let records = pending
        pending.removeAll()
        pendingNames.removeAll()
        return Array(Dictionary(grouping: records, by: { [$0.dbID, $0.zoneID] }).values)
    }

    /// One statement for rows of one zone, sent ahead: its answer comes with the next statement
    /// (every statement that follows sees the rows). A queued blind insert was known absent under
    /// the database's lock, so replacing on conflict is the same as inserting; every row must
    /// land, or the next statement fails.
    private func insertRecords(_ group: [PendingRecord], _ connection: PostgresConnection) throws {
        try connection.sendPrepared(Self.insertSQL(group), try Self.insertParameters(group), expectingRows: group.count)
        writtenRows += group.count
    }

    /// Sends the queued record writes together with the counters of a modify call (see
    /// `PostgresCloudTransaction.advanceZoneAndDatabase`) when they are all of that zone and
    /// there are no references to write, without waiting for the answer: the zone's row is
    /// changed only when every record row landed, so a missing row fails the commit ("changed
    /// 0 rows instead of 1"). False (nothing sent) otherwise.
    func sendWithCounters(zone zoneID: Int64, dbID: Int64, seq: Int64, countDelta: Int,
                          _ connection: PostgresConnection) throws -> Bool {
        guard !pending.isEmpty, pendingReferences.isEmpty,
              pending.allSatisfy({ $0.dbID == dbID && $0.zoneID == zoneID }) else { return false }
        let group = pending
        pending.removeAll()
        pendingNames.removeAll()
        try connection.sendPrepared("""
            WITH w AS (\(Self.insertSQL(group)) RETURNING 1),
            d AS (UPDATE databases SET seq = seq + 1 WHERE db_id=$1 RETURNING seq)
            UPDATE zones SET seq=$15, db_seq=d.seq, record_count=record_count+$16 FROM d
            WHERE zones.db_id=$1 AND zones.zone_id=$2 AND (SELECT count(*) FROM w) = $17
            """, try Self.insertParameters(group) + [.int64(seq), .int64(Int64(countDelta)), .int64(Int64(group.count))],
            expectingRows: 1)
        writtenRows += group.count
        return true
    }

    /// The batch insert of `group`: $1 db_id, $2 zone_id, $3… one array per column. When every
    /// row was read ahead as absent it is a plain `INSERT` (no `ON CONFLICT`: PostgreSQL then
    /// skips the speculative insertion, a look-up of the primary key and a lock per row);
    /// otherwise a row of that name is replaced.
    static func insertSQL(_ group: [PendingRecord]) -> String {
        group.allSatisfy(\.absent) ? insertColumnsSQL : insertColumnsSQL + "\n" + replaceSQL
    }

    static let insertColumnsSQL = """
        INSERT INTO records(db_id, zone_id, name, type, seq, change_tag, deleted, fields, has_refs, created_ms,
            created_user, created_device, modified_ms, modified_user, modified_device)
        SELECT $1, $2, u.name, u.type, u.seq, u.tag, false, u.fields, u.has_refs, u.cms, u.cuser, u.cdevice,
            u.mms, u.muser, u.mdevice
        FROM unnest($3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::boolean[], $9::bigint[],
            $10::text[], $11::text[], $12::bigint[], $13::text[], $14::text[])
            AS u(name, type, seq, tag, fields, has_refs, cms, cuser, cdevice, mms, muser, mdevice)
        """

    static let replaceSQL = """
        ON CONFLICT(db_id, zone_id, name) DO UPDATE SET type=excluded.type, seq=excluded.seq,
            change_tag=excluded.change_tag, deleted=false, fields=excluded.fields, has_refs=excluded.has_refs,
            created_ms=excluded.created_ms, created_user=excluded.created_user,
            created_device=excluded.created_device, modified_ms=excluded.modified_ms,
            modified_user=excluded.modified_user, modified_device=excluded.modified_device
        """

    /// Binary arrays (`PostgresValue.textArray` …): nothing escaped or parsed as text.
    static func insertParameters(_ group: [PendingRecord]) throws -> [PostgresValue] {
        let rows = group.map(\.row)
        return [.int64(group[0].dbID), .int64(group[0].zoneID),
                try .textArray(rows.map(\.name)), try .textArray(rows.map(\.type)),
                .int64Array(rows.map(\.seq)), try .textArray(rows.map(\.changeTag)),
                try .textArray(rows.map(\.fieldsText)), .boolArray(rows.map(\.hasRefs)),
                .int64Array(rows.map(\.created.timestamp)), try .textArray(rows.map(\.created.userRecordName)),
                try .textArray(rows.map(\.created.deviceID)), .int64Array(rows.map(\.modified.timestamp)),
                try .textArray(rows.map(\.modified.userRecordName)), try .textArray(rows.map(\.modified.deviceID))]
    }
}
