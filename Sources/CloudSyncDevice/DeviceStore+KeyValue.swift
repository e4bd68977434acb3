import CloudSyncService
import CloudSyncCore
import CloudSyncSQLite

/// A key of the device's copy of the key-value store.
public struct LocalKeyValue: Sendable, Hashable {
    public var key: String
    /// nil when deleted (a pending deletion).
    public var value: KeyValue?
    public var pending: Bool
    public var modified: Int64
}

extension DeviceStore {
    /// The live keys of the local copy, in key order.
    public func keyValues(container: String) throws(CloudError) -> [LocalKeyValue] {
        try guarded {
            try connection.query("""
                SELECT key, type, value, deleted, pending, modified_ms FROM kv_local WHERE container=? AND deleted=0 ORDER BY key
                """, [container]) { row in
                LocalKeyValue(key: row.string(0), value: KeyValue(typeName: row.string(1), storedText: row.string(2)),
                              pending: row.bool(4), modified: row.int64(5))
            }
        }
    }

    /// One key of the local copy (nil when absent or deleted).
    public func keyValue(container: String, _ key: String) throws(CloudError) -> KeyValue? {
        try guarded {
            try connection.queryOne("SELECT type, value FROM kv_local WHERE container=? AND key=? AND deleted=0", [container, key]) {
                KeyValue(typeName: $0.string(0), storedText: $0.string(1))
            } ?? nil
        }
    }

    /// Writes (or with nil deletes) a key locally, pending until `kv sync`. Apple's limits are
    /// checked against the local copy first: a write over a limit changes nothing.
    public func setKeyValue(container: String, _ key: String, _ value: KeyValue?, now: Int64) throws(CloudError) {
        try KeyValueLimits.validateKey(key)
        if let value, value.size > KeyValueLimits.maxValueBytes {
            throw CloudError(.quotaExceeded, "QuotaViolation: the value is \(value.size) bytes; a value holds at most \(KeyValueLimits.maxValueBytes)")
        }
        try guarded {
            try connection.transaction(.immediate) {
                try connection.run("""
                    INSERT OR REPLACE INTO kv_local(container, key, type, value, deleted, pending, modified_ms)
                    VALUES (?, ?, ?, ?, ?, 1, ?)
                    """, container, key, value?.typeName ?? "", value?.storedText, value == nil, now)
                let live = try keyValuesInTransaction(container)
                guard live.count <= KeyValueLimits.maxKeys else {
                    throw CloudError(.quotaExceeded, "QuotaViolation: the store would hold \(live.count) keys; the limit is \(KeyValueLimits.maxKeys)")
                }
                let total = live.reduce(0) { $0 + $1.key.utf8.count + ($1.value?.size ?? 0) }
                guard total <= KeyValueLimits.maxTotalBytes else {
                    throw CloudError(.quotaExceeded, "QuotaViolation: the store would hold \(total) bytes; the limit is \(KeyValueLimits.maxTotalBytes) (1 MB)")
                }
            }
        }
    }

    func keyValuesInTransaction(_ container: String) throws -> [(key: String, value: KeyValue?)] {
        try connection.query("SELECT key, type, value FROM kv_local WHERE container=? AND deleted=0", [container]) {
            ($0.string(0), KeyValue(typeName: $0.string(1), storedText: $0.string(2)))
        }
    }

    /// Writes not yet in the cloud.
    public func pendingKeyValues(container: String) throws(CloudError) -> [KeyValueWrite] {
        try guarded {
            try connection.query("SELECT key, type, value, deleted FROM kv_local WHERE container=? AND pending=1 ORDER BY key",
                                 [container]) { row in
                KeyValueWrite(key: row.string(0), value: row.bool(3) ? nil : KeyValue(typeName: row.string(1), storedText: row.string(2)))
            }
        }
    }

    /// Stores the cloud's state of keys (inside one transaction with the token): a key with a
    /// pending local write is left alone unless `overwritePending`.
    public func applyKeyValues(container: String, _ items: [KeyValueItem], token: ServerChangeToken?, clearPending keys: Set<String>,
                               overwritePending: Bool) throws(CloudError) {
        try guarded {
            try connection.transaction(.immediate) {
                for key in keys {
                    try connection.run("UPDATE kv_local SET pending=0 WHERE container=? AND key=?", container, key)
                }
                for item in items {
                    let pending = try connection.scalarInt("SELECT pending FROM kv_local WHERE container=? AND key=?", [container, item.key]) ?? 0
                    if pending == 1 && !overwritePending { continue }
                    if let value = item.value {
                        try connection.run("""
                            INSERT OR REPLACE INTO kv_local(container, key, type, value, deleted, pending, modified_ms)
                            VALUES (?, ?, ?, ?, 0, 0, ?)
                            """, container, item.key, value.typeName, value.storedText, item.modified)
                    } else {
                        try connection.run("DELETE FROM kv_local WHERE container=? AND key=?", container, item.key)
                    }
                }
                if let token {
                    try connection.run("INSERT OR REPLACE INTO sync_state(container, key, value) VALUES (?, 'kv_token', ?)",
                                       container, token.rawValue)
                }
            }
        }
    }

    /// Forgets the local copy (keeping nothing pending): for an account change.
    public func resetKeyValues(container: String) throws(CloudError) {
        try guarded {
            try connection.transaction(.immediate) {
                try connection.run("DELETE FROM kv_local WHERE container=?", container)
                try connection.run("DELETE FROM sync_state WHERE container=? AND key IN ('kv_token', 'kv_account')", container)
            }
        }
    }
}
