import CloudSyncCore
import CloudSyncPostgres
import Synchronization

/// How far a streaming replica has replayed (`pg_last_wal_replay_lsn()`), read on a connection
/// of its own that does not open the cloud, whose tables the replica may not have replayed yet
/// (`ReadReplica.probe`). The connection is kept between reads (one round trip each) and made
/// again after a failure.
final class ReplicaReplayProbe: Sendable {
    let url: PostgresURL
    private let connection = Mutex<PostgresConnection?>(nil)

    init(_ url: PostgresURL) {
        self.url = url
    }

    /// The replica's replay position now, as a WAL byte offset. A replica that cannot be
    /// reached is `serviceUnavailable`, as is a server that is not a streaming replica.
    func replayed() throws(CloudError) -> UInt64 {
        let result: Result<Int64?, PostgresError> = connection.withLock { kept in
            do throws(PostgresError) {
                let live: PostgresConnection
                if let open = kept {
                    live = open
                } else {
                    live = try PostgresConnection(url)
                    kept = live
                }
                return .success(try live.query("SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint").first?[0].int64)
            } catch {
                kept = nil
                return .failure(error)
            }
        }
        let value: Int64?
        switch result {
        case .success(let read): value = read
        case .failure(let error): throw CloudError(.serviceUnavailable, "read replica \(url.description): \(error.description)")
        }
        guard let value, value >= 0 else { throw CloudError(.serviceUnavailable, "\(url.description) is not a streaming replica") }
        return UInt64(value)
    }
}
