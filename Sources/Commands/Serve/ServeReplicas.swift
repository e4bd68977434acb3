import CloudSyncCLI
import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres
import CloudSyncPostgresCloud
import CloudSyncWebServer

/// `serve --read-replica URL` (repeatable, issue 28): the router of read-only calls to streaming
/// replicas of the primary of `--cloud postgres://…`.
enum ServeReplicas {
    /// The router, or nil without `--read-replica`. A malformed URL, or replicas of a cloud that
    /// is not PostgreSQL, is a usage error (64); a replica that does not answer yet is not an
    /// error: `warn` gets one line and the primary answers until it does.
    static func router(_ texts: [String], primary: StorageBackedCloud, connections: Int,
                       warn: @escaping @Sendable (String) -> Void) throws -> ReplicaRouter? {
        guard !texts.isEmpty else { return nil }
        guard let primary = primary as? PostgresCloud else {
            throw CLIError.usage("--read-replica needs a postgres:// --cloud: it reads from streaming replicas of that PostgreSQL primary")
        }
        var replicas: [ReadReplica] = []
        for text in texts {
            let url: PostgresURL
            do {
                url = try PostgresURL(text)
            } catch {
                throw CLIError.usage("--read-replica takes a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL: \(error.description)")
            }
            // The same tables as the primary: the replica's URL names the same schema.
            replicas.append(ReadReplica(
                name: url.description,
                open: { () throws(CloudError) -> any CloudService in
                    try PostgresCloud(url: text, connections: connections, maxWait: replicaWait)
                },
                replayed: { service throws(CloudError) -> UInt64 in
                    guard let replica = service as? PostgresCloud else { throw CloudError(.internalError, "a replica that is not PostgreSQL") }
                    return try replica.replayPosition()
                },
                probe: { [probe = ReplicaReplayProbe(url)] () throws(CloudError) -> UInt64 in try probe.replayed() }))
        }
        return ReplicaRouter(primaryPosition: { () throws(CloudError) -> UInt64 in try primary.writePosition() },
                             replicas: replicas, log: warn)
    }

    /// How long a read waits for a free replica connection before the primary answers it.
    static let replicaWait = 0.2
}
