import CloudSyncCore
import CloudSyncSQLite
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The embedded cloud: every container, account and database in one SQLite file, in WAL mode
/// with a busy timeout so that several `cloudsync` processes (devices) share it.
///
/// Change sequencing: each zone has a counter; a modify call takes the next numbers inside its
/// `BEGIN IMMEDIATE` transaction, so writers serialize and a reader never sees seq N+1 before N.
/// Each record row keeps its latest seq; deletions leave tombstones.
public final class SQLiteCloud: CloudService, @unchecked Sendable {
    let connection: Connection
    let state = Mutex(())
    /// The random identity of this cloud file, carried in every token: a new (or emptied) file
    /// gets a new one, so that tokens of the cloud it replaces are recognised as foreign.
    public let epoch: UInt64
    let clock: CloudClock
    /// Field types per container and record type, as committed.
    var schemaCache: [SchemaKey: [String: FieldTypeName]] = [:]
    public let path: String

    /// Opens (creating if needed) the cloud file at `path`.
    public init(path: String, clock: @escaping CloudClock = systemClock) throws(CloudError) {
        self.path = path
        self.clock = clock
        do {
            var options = Connection.Options()
            options.fileMode = 0o600
            connection = try Connection(path: path, options: options)
        } catch {
            throw SQLiteCloud.openError(error, path: path)
        }
        do {
            epoch = try SQLiteCloud.prepare(connection, path: path)
        } catch let error as CloudError {
            throw error
        } catch let error as MigrationError {
            throw CloudError(.badDatabase, error.description)
        } catch let error as SQLiteError {
            throw SQLiteCloud.openError(error, path: path)
        } catch {
            throw CloudError(.internalError, "cannot open the cloud file \(path): \(error)")
        }
    }

    static func openError(_ error: SQLiteError, path: String) -> CloudError {
        if error.isCorrupt {
            return CloudError(.badDatabase, "cloud file \(path) is not a cloudsync database (\(error.message))")
        }
        if error.isBusy {
            return CloudError(.serviceUnavailable, "cloud file \(path) is locked by another process", retryAfter: 1)
        }
        return CloudError(.badDatabase, "cannot open the cloud file \(path): \(error.message)")
    }

    /// Creates the tables of a new (or zero-length) file with a fresh random store epoch, or
    /// checks that an existing file is a cloud this build reads and upgrades an older one
    /// (`SQLiteCloudSchema.migrator`). Returns the store epoch.
    static func prepare(_ db: Connection, path: String) throws -> UInt64 {
        try SQLiteCloudSchema.migrator.prepare(db, path: path) { db in
            try db.run("INSERT INTO meta(key, value) VALUES ('epoch', ?)", RandomID.hex(bytes: 8))
        }
        guard let text = try db.queryOne("SELECT value FROM meta WHERE key='epoch'", [], { $0.string(0) }),
              let value = UInt64(text, radix: 16) else {
            throw CloudError(.badDatabase, "cloud file \(path) has no store epoch")
        }
        return value
    }

    /// Runs `body` holding the connection, mapping every failure to a `CloudError`.
    func guarded<T>(_ body: () throws -> T) throws(CloudError) -> T {
        do {
            return try state.withLock { _ in try body() }
        } catch let error as CloudError {
            throw error
        } catch let error as SQLiteError {
            schemaCache.removeAll()
            if error.isBusy {
                throw CloudError(.serviceUnavailable, "the cloud file is busy (locked by another process)", retryAfter: 1)
            }
            if error.isCorrupt {
                throw CloudError(.badDatabase, "cloud file \(path) is damaged: \(error.message)")
            }
            if error.primaryCode == 13 /* SQLITE_FULL */ {
                throw CloudError(.quotaExceeded, "the cloud file's disk is full")
            }
            throw CloudError(.internalError, "cloud storage failed: \(error.message)")
        } catch {
            throw CloudError(.internalError, "cloud failed: \(error)")
        }
    }

    // MARK: Accounts

    public func account(named name: String) throws(CloudError) -> Account {
        try guarded {
            if let existing = try connection.queryOne("SELECT user_record_name FROM accounts WHERE name=?", [name], { $0.string(0) }) {
                return Account(name: name, userRecordName: existing)
            }
            try connection.run("INSERT OR IGNORE INTO accounts(name, user_record_name, created_ms) VALUES (?, ?, ?)",
                               name, "_" + RandomID.hex(bytes: 16), clock())
            let recordName = try connection.queryOne("SELECT user_record_name FROM accounts WHERE name=?", [name]) { $0.string(0) }
            return Account(name: name, userRecordName: recordName ?? "")
        }
    }

    // MARK: Databases and zones (shared helpers)

    /// A database row.
    struct DatabaseRow {
        var id: Int64
        var seq: Int64
    }

    /// A live zone row.
    struct ZoneRow {
        var id: Int64
        var name: String
        var atomic: Bool
        var seq: Int64
        var floorSeq: Int64
        var recordCount: Int
    }

    func owner(of request: DatabaseRequest) -> String {
        request.scope == .public ? "" : request.userRecordName
    }

    /// The database row, or nil if it was never used.
    func findDatabase(_ request: DatabaseRequest) throws -> DatabaseRow? {
        try connection.queryOne("SELECT db_id, seq FROM databases WHERE container=? AND scope=? AND owner=?",
                                [request.container, request.scope.rawValue, owner(of: request)]) {
            DatabaseRow(id: $0.int64(0), seq: $0.int64(1))
        }
    }

    /// The database row, created with its `_defaultZone` on first use. Call inside a write
    /// transaction, or outside one (it then makes its own).
    func ensureDatabase(_ request: DatabaseRequest) throws -> DatabaseRow {
        if let row = try findDatabase(request) { return row }
        return try connection.transaction(.immediate) {
            if let row = try findDatabase(request) { return row }
            try connection.run("INSERT INTO databases(container, scope, owner, seq) VALUES (?, ?, ?, 0)",
                               request.container, request.scope.rawValue, owner(of: request))
            let id = connection.lastInsertRowID
            try connection.run("""
                INSERT INTO zones(db_id, name, atomic, seq, db_seq, created_ms) VALUES (?, ?, 0, 0, 0, ?)
                """, id, ZoneID.defaultZoneName, clock())
            return DatabaseRow(id: id, seq: 0)
        }
    }

    /// Takes the next database sequence number. Call inside the writing transaction.
    func nextDatabaseSeq(_ dbID: Int64) throws -> Int64 {
        guard let seq = try connection.scalarInt("UPDATE databases SET seq = seq + 1 WHERE db_id=? RETURNING seq", [dbID]) else {
            throw CloudError(.internalError, "database \(dbID) vanished")
        }
        return seq
    }

    func findZone(_ name: String, dbID: Int64) throws -> ZoneRow? {
        try connection.queryOne("""
            SELECT zone_id, atomic, seq, floor_seq, record_count FROM zones WHERE db_id=? AND name=? AND deleted=0
            """, [dbID, name]) {
            ZoneRow(id: $0.int64(0), name: name, atomic: $0.bool(1), seq: $0.int64(2), floorSeq: $0.int64(3),
                    recordCount: $0.int(4))
        }
    }

    /// The live zone, or `zoneNotFound` / `userDeletedZone` when it is gone.
    func requireZone(_ name: String, dbID: Int64, request: DatabaseRequest) throws -> ZoneRow {
        if let zone = try findZone(name, dbID: dbID) { return zone }
        throw try missingZoneError(name, dbID: dbID, request: request)
    }

    func missingZoneError(_ name: String, dbID: Int64?, request: DatabaseRequest) throws -> CloudError {
        let zoneID = request.zoneID(name)
        if let dbID, let reason = try connection.queryOne(
            "SELECT deleted FROM zones WHERE db_id=? AND name=? AND deleted>0 ORDER BY db_seq DESC LIMIT 1",
            [dbID, name], { $0.int64(0) }), reason == 2 {
            var error = CloudError(.userDeletedZone, "zone '\(name)' was deleted by the user; re-create it to sync again")
            error.recordID = RecordID(recordName: "", zoneID: zoneID)
            return error
        }
        return CloudError(.zoneNotFound, "zone '\(name)' does not exist in the \(request.scope.rawValue) database")
    }

    func capabilities(of zone: ZoneRow) -> ZoneCapabilities {
        if zone.name == ZoneID.defaultZoneName { return [] }
        return zone.atomic ? [.fetchChanges, .atomic] : [.fetchChanges]
    }

    func zoneToken(_ zone: ZoneRow, seq: Int64? = nil) -> ServerChangeToken {
        ServerChangeToken(rawValue: ChangeTokenCodec.encode(
            TokenPayload(kind: .zone, epoch: epoch, scopeID: zone.id, sequence: seq ?? zone.seq)))
    }

    func info(_ zone: ZoneRow, request: DatabaseRequest) -> ZoneInfo {
        let caps = capabilities(of: zone)
        return ZoneInfo(zoneID: request.zoneID(zone.name), capabilities: caps,
                        syncToken: caps.contains(.fetchChanges) ? zoneToken(zone) : nil, recordCount: zone.recordCount)
    }

    /// The change tag of the save that took `seq` in zone incarnation `zoneID`.
    func changeTag(zoneID: Int64, seq: Int64) -> String {
        String(zoneID, radix: 36) + "-" + String(seq, radix: 36)
    }
}
