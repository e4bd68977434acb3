import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

/// Whose copy of the cloud a cache row or token belongs to. The raw cache (`fetch-changes`)
/// and the local store's sync base are separate copies with separate tokens: a fetch that
/// moved a shared token past changes the local store had not applied would hide them from
/// the store for good.
public enum CacheCursor: String, Sendable, Hashable {
    /// The raw cache `fetch-changes` fills (no local model behind it).
    case raw
    /// The local store's base: the cloud versions (and change tags) its records were last
    /// merged with, advanced only by `store sync` / `otp sync`.
    case localStore
}

/// The scope of cached data: one database of one container as this device sees it, through
/// one cursor.
public struct CacheScope: Sendable, Hashable {
    public var container: String
    public var scope: DatabaseScope
    public var cursor: CacheCursor

    public init(container: String, scope: DatabaseScope, cursor: CacheCursor = .raw) {
        self.container = container
        self.scope = scope
        self.cursor = cursor
    }

    /// What the device file's `scope` column holds for this scope and cursor: the database
    /// scope for the raw cache (as every earlier version wrote it), `store:` + scope for the
    /// local store's base.
    public var column: String {
        switch cursor {
        case .raw: return scope.rawValue
        case .localStore: return CacheScope.localStorePrefix + scope.rawValue
        }
    }

    /// The prefix of the local store's `scope` column values.
    static let localStorePrefix = "store:"
}

/// One page of zone changes to apply together with its token.
public struct CachePage: Sendable {
    public var zoneID: ZoneID
    public var changed: [Record]
    public var deleted: [RecordID]
    /// The fields of `changed` as the cache stores them (JSON text), aligned with it: what the
    /// cloud gave (`ZoneChanges.encodedFields`), and after `apply` every one, so a sink writing
    /// the same fields locally reuses them instead of encoding again. Empty when unknown.
    var encodedFields: [String?]
    public var token: ServerChangeToken

    /// A page; `encodedFields`: the fields of `changed` as text where the cloud had them
    /// (`ZoneChanges.encodedFields`), kept instead of encoding the fields again.
    public init(zoneID: ZoneID, changed: [Record], deleted: [RecordID], token: ServerChangeToken,
                encodedFields: [String?] = []) {
        self.zoneID = zoneID
        self.changed = changed
        self.deleted = deleted
        self.token = token
        self.encodedFields = encodedFields.count == changed.count ? encodedFields : []
    }
}

extension DeviceStore {
    // MARK: Tokens

    /// The stored database change token.
    public func databaseToken(_ scope: CacheScope) throws(CloudError) -> ServerChangeToken? {
        try guarded {
            try connection.queryOne("SELECT token FROM database_tokens WHERE container=? AND scope=?",
                                    [scope.container, scope.column]) { ServerChangeToken(rawValue: $0.string(0)) }
        }
    }

    /// Stores (or with nil, forgets) the database change token.
    public func setDatabaseToken(_ token: ServerChangeToken?, _ scope: CacheScope, now: Int64) throws(CloudError) {
        try guarded {
            if let token {
                try connection.run("INSERT OR REPLACE INTO database_tokens(container, scope, token, updated_ms) VALUES (?, ?, ?, ?)",
                                   scope.container, scope.column, token.rawValue, now)
            } else {
                try connection.run("DELETE FROM database_tokens WHERE container=? AND scope=?", scope.container, scope.column)
            }
        }
    }

    /// The stored change token of a zone.
    public func zoneToken(_ zoneID: ZoneID, _ scope: CacheScope) throws(CloudError) -> ServerChangeToken? {
        try guarded {
            try connection.queryOne("""
                SELECT token FROM zone_tokens WHERE container=? AND scope=? AND zone_name=? AND owner=?
                """, [scope.container, scope.column, zoneID.zoneName, zoneID.ownerRecordName]) {
                ServerChangeToken(rawValue: $0.string(0))
            }
        }
    }

    /// Every zone this device holds a token or records for.
    public func cachedZones(_ scope: CacheScope) throws(CloudError) -> [ZoneID] {
        try guarded {
            try connection.query("""
                SELECT zone_name, owner FROM zone_tokens WHERE container=? AND scope=?
                UNION SELECT DISTINCT zone_name, owner FROM cached_records WHERE container=? AND scope=?
                ORDER BY 1
                """, [scope.container, scope.column, scope.container, scope.column]) {
                ZoneID(zoneName: $0.string(0), ownerRecordName: $0.string(1))
            }
        }
    }

    // MARK: Applying changes

    /// Applies one page of zone changes and stores its token, in one transaction: after a crash
    /// either both are there or neither.
    public func apply(_ page: CachePage, _ scope: CacheScope, now: Int64, sink: (any LocalSink)? = nil) throws(CloudError) {
        try guarded {
            try connection.transaction(.immediate) {
                var page = page
                let given = page.encodedFields.count == page.changed.count
                    ? page.encodedFields : Array(repeating: nil, count: page.changed.count)
                let encoded = zip(page.changed, given).map { $1 ?? RecordJSON.fieldsText($0.fields) }
                page.encodedFields = encoded
                if let sink {
                    // Only a record with local changes waiting is merged, and only a merge needs
                    // its ancestor: with nothing pending in the zone (the usual pull, and every
                    // pull into a new device) there is nothing to look up.
                    var ancestors: [RecordID: Record] = [:]
                    let zone = page.zoneID.zoneName
                    if try hasPending(container: scope.container, zone: zone) {
                        for id in page.changed.map(\.recordID) + page.deleted
                        where try pendingRow(container: scope.container, zone: zone, name: id.recordName) != nil {
                            if let cached = try cachedRecordInTransaction(id, scope) { ancestors[id] = cached }
                        }
                    }
                    try sink.apply(page, ancestors: ancestors, in: self)
                }
                try upsertCache(page.changed, scope, fieldsJSON: encoded, zone: page.zoneID)
                let delete = try connection.prepare("""
                    DELETE FROM cached_records WHERE container=? AND scope=? AND zone_name=? AND owner=? AND record_name=?
                    """)
                for id in page.deleted {
                    try delete.run([scope.container, scope.column, page.zoneID.zoneName,
                                    page.zoneID.ownerRecordName, id.recordName])
                }
                try connection.run("""
                    INSERT OR REPLACE INTO zone_tokens(container, scope, zone_name, owner, token, updated_ms)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, scope.container, scope.column, page.zoneID.zoneName, page.zoneID.ownerRecordName,
                    page.token.rawValue, now)
            }
        }
    }

    /// Forgets a zone: its cached records and its token, in one transaction. Returns how many
    /// records were dropped.
    @discardableResult
    public func dropZone(_ zoneID: ZoneID, _ scope: CacheScope, reason: ZoneDeletionReason? = nil,
                         sink: (any LocalSink)? = nil) throws(CloudError) -> Int {
        try guarded {
            try connection.transaction(.immediate) {
                try sink?.zoneDropped(zoneID, reason: reason, in: self)
                try connection.run("DELETE FROM cached_records WHERE container=? AND scope=? AND zone_name=? AND owner=?",
                                   scope.container, scope.column, zoneID.zoneName, zoneID.ownerRecordName)
                let dropped = connection.changes
                try connection.run("DELETE FROM zone_tokens WHERE container=? AND scope=? AND zone_name=? AND owner=?",
                                   scope.container, scope.column, zoneID.zoneName, zoneID.ownerRecordName)
                return dropped
            }
        }
    }

    // MARK: Reading the cache

    /// A cached record, or nil.
    public func cachedRecord(_ id: RecordID, _ scope: CacheScope) throws(CloudError) -> Record? {
        try guarded {
            try connection.queryOne("""
                SELECT record_name, record_type, change_tag, fields, created_ms, created_user, created_device,
                    modified_ms, modified_user, modified_device
                FROM cached_records WHERE container=? AND scope=? AND zone_name=? AND owner=? AND record_name=?
                """, [scope.container, scope.column, id.zoneID.zoneName, id.zoneID.ownerRecordName, id.recordName]) {
                try DeviceStore.decodeCached($0, zoneID: id.zoneID)
            }
        }
    }

    /// How many records are cached in a zone (or in all zones with nil).
    public func cachedRecordCount(_ zoneID: ZoneID?, _ scope: CacheScope) throws(CloudError) -> Int {
        try guarded {
            if let zoneID {
                return Int(try connection.scalarInt("""
                    SELECT count(*) FROM cached_records WHERE container=? AND scope=? AND zone_name=? AND owner=?
                    """, [scope.container, scope.column, zoneID.zoneName, zoneID.ownerRecordName]) ?? 0)
            }
            return Int(try connection.scalarInt("SELECT count(*) FROM cached_records WHERE container=? AND scope=?",
                                                [scope.container, scope.column]) ?? 0)
        }
    }

    /// Cached records of a zone in record-name order, `limit` at a time after `afterName`.
    public func cachedRecords(in zoneID: ZoneID, _ scope: CacheScope, after afterName: String = "",
                              limit: Int = 1000) throws(CloudError) -> [Record] {
        try guarded {
            try connection.query("""
                SELECT record_name, record_type, change_tag, fields, created_ms, created_user, created_device,
                    modified_ms, modified_user, modified_device
                FROM cached_records WHERE container=? AND scope=? AND zone_name=? AND owner=? AND record_name>?
                ORDER BY record_name LIMIT ?
                """, [scope.container, scope.column, zoneID.zoneName, zoneID.ownerRecordName, afterName, limit]) {
                try DeviceStore.decodeCached($0, zoneID: zoneID)
            }
        }
    }

    /// A cached record from the columns record_name, record_type, change_tag, fields,
    /// created_ms, created_user, created_device, modified_ms, modified_user, modified_device of
    /// `row`, starting at column `first`.
    static func decodeCached(_ row: Statement, zoneID: ZoneID, from first: Int32 = 0) throws -> Record {
        let c = first
        return Record(recordID: RecordID(recordName: row.string(c), zoneID: zoneID), recordType: row.string(c + 1),
                      fields: try decodeFields(row, c + 3),
                      system: SystemFields(changeTag: row.string(c + 2),
                                           created: ChangeStamp(timestamp: row.int64(c + 4), userRecordName: row.string(c + 5),
                                                                deviceID: row.string(c + 6)),
                                           modified: ChangeStamp(timestamp: row.int64(c + 7), userRecordName: row.string(c + 8),
                                                                 deviceID: row.string(c + 9))))
    }
}
