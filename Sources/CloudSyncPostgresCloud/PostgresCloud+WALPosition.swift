import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

/// Write-ahead-log positions (issue 28, read replicas): how far a primary has written and how far
/// a streaming replica has replayed, as byte offsets in the WAL (PostgreSQL's `pg_lsn` less
/// `0/0`). `serve --read-replica` hands the primary's position to its callers and sends a read to
/// a replica only when the replica has replayed at least as far as the caller has seen.
extension PostgresCloud {
    /// The primary's WAL insert position now (`pg_current_wal_insert_lsn()`): at or after the
    /// commit record of every transaction committed before the call. One round trip.
    public func writePosition() throws(CloudError) -> UInt64 {
        try position("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint", what: "the primary's WAL position")
    }

    /// How far this server, a streaming replica, has replayed the primary's WAL now
    /// (`pg_last_wal_replay_lsn()`): every transaction whose commit record ends at or before it
    /// is visible to new reads here. A server that is not a replica is `serviceUnavailable`.
    public func replayPosition() throws(CloudError) -> UInt64 {
        try position("SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint", what: "the replica's replay position")
    }

    private func position(_ sql: String, what: String) throws(CloudError) -> UInt64 {
        guard let storage = storage as? PostgresCloudStorage else {
            throw CloudError(.internalError, "\(what) needs a PostgreSQL cloud")
        }
        let value = try storage.guarded { connection in try connection.queryPrepared(sql).first?[0].int64 }
        guard let value, value >= 0 else {
            throw CloudError(.serviceUnavailable, "\(url) reports no WAL position (\(what)): is it a streaming replica?")
        }
        return UInt64(value)
    }
}
