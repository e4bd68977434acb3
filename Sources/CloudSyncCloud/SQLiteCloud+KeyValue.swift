import CloudSyncCore
import CloudSyncSQLite

extension SQLiteCloud {
    /// The key-value store row of (container, account), created on first use.
    func ensureKeyValueStore(_ request: DatabaseRequest) throws -> (id: Int64, seq: Int64) {
        if let row = try connection.queryOne("SELECT kv_id, seq FROM kv_stores WHERE container=? AND owner=?",
                                             [request.container, request.userRecordName], { ($0.int64(0), $0.int64(1)) }) {
            return row
        }
        try connection.run("INSERT OR IGNORE INTO kv_stores(container, owner, seq) VALUES (?, ?, 0)", request.container, request.userRecordName)
        return try connection.queryOne("SELECT kv_id, seq FROM kv_stores WHERE container=? AND owner=?",
                                       [request.container, request.userRecordName], { ($0.int64(0), $0.int64(1)) }) ?? (0, 0)
    }

    public func modifyKeyValues(_ writes: [KeyValueWrite], in request: DatabaseRequest) throws(CloudError) -> [KeyValueItem] {
        for write in writes {
            try KeyValueLimits.validateKey(write.key)
            if let value = write.value, value.size > KeyValueLimits.maxValueBytes {
                throw CloudError(.quotaExceeded,
                                 "QuotaViolation: the value of '\(write.key)' is \(value.size) bytes; a value holds at most \(KeyValueLimits.maxValueBytes)")
            }
        }
        return try guarded {
            try connection.transaction(.immediate) {
                let store = try ensureKeyValueStore(request)
                var seq = store.seq
                let now = clock()
                var items: [KeyValueItem] = []
                for write in writes {
                    seq += 1
                    try connection.run("""
                        INSERT OR REPLACE INTO kv_values(kv_id, key, type, value, deleted, seq, modified_ms, modified_device)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, store.id, write.key, write.value?.typeName ?? "", write.value?.storedText, write.value == nil,
                        seq, now, request.deviceID)
                    items.append(KeyValueItem(key: write.key, value: write.value, modified: now, deviceID: request.deviceID))
                }
                let count = try connection.scalarInt("SELECT count(*) FROM kv_values WHERE kv_id=? AND deleted=0", [store.id]) ?? 0
                guard count <= Int64(KeyValueLimits.maxKeys) else {
                    throw CloudError(.quotaExceeded, "QuotaViolation: the store would hold \(count) keys; the limit is \(KeyValueLimits.maxKeys)")
                }
                let total = try connection.scalarInt("""
                    SELECT coalesce(sum(length(CAST(key AS BLOB)) + CASE type WHEN 'data' THEN length(value) * 3 / 4 ELSE length(CAST(value AS BLOB)) END), 0)
                    FROM kv_values WHERE kv_id=? AND deleted=0
                    """, [store.id]) ?? 0
                guard total <= Int64(KeyValueLimits.maxTotalBytes) else {
                    throw CloudError(.quotaExceeded, "QuotaViolation: the store would hold \(total) bytes; the limit is \(KeyValueLimits.maxTotalBytes) (1 MB)")
                }
                try enqueueKeyValueNotifications(for: request)
                try connection.run("UPDATE kv_stores SET seq=? WHERE kv_id=?", seq, store.id)
                return items
            }
        }
    }

    public func fetchKeyValueChanges(since token: ServerChangeToken?, in request: DatabaseRequest) throws(CloudError) -> KeyValueChanges {
        var since: Int64 = 0
        var expectedStore: Int64?
        if let token {
            let payload = try ChangeTokenCodec.decode(token.rawValue, expecting: .database)
            guard payload.epoch == epoch else {
                throw CloudError(.changeTokenExpired, "the key-value token comes from another cloud; fetch every key again")
            }
            since = payload.sequence
            expectedStore = payload.scopeID
        }
        return try guarded {
            let store = try connection.transaction(.immediate) { try ensureKeyValueStore(request) }
            return try connection.transaction(.deferred) {
                if let expectedStore, expectedStore != -store.id {
                    throw CloudError(.changeTokenExpired, "the key-value token belongs to another account's store")
                }
                guard let current = try connection.scalarInt("SELECT seq FROM kv_stores WHERE kv_id=?", [store.id]) else {
                    throw CloudError(.internalError, "key-value store vanished")
                }
                guard since <= current else {
                    throw CloudError(.changeTokenExpired, "the key-value token is ahead of the cloud; fetch every key again")
                }
                let items = try connection.query("""
                    SELECT key, type, value, deleted, modified_ms, modified_device FROM kv_values
                    WHERE kv_id=? AND seq>? ORDER BY seq
                    """, [store.id, since]) { row -> KeyValueItem in
                    let value = row.bool(3) ? nil : KeyValue(typeName: row.string(1), storedText: row.string(2))
                    return KeyValueItem(key: row.string(0), value: value, modified: row.int64(4), deviceID: row.string(5))
                }
                // Key-value tokens are database-kind tokens with a negative scope id, so they can
                // never be mistaken for a database's token.
                let newToken = ServerChangeToken(rawValue: ChangeTokenCodec.encode(
                    TokenPayload(kind: .database, epoch: epoch, scopeID: -store.id, sequence: current)))
                return KeyValueChanges(items: items, token: newToken)
            }
        }
    }
}
