import CloudSyncService
import CloudSyncCore

/// One streaming replica of the primary PostgreSQL (`serve --read-replica`), as `ReplicaRouter`
/// uses it: how to open its cloud and how to read how far it has replayed.
public struct ReadReplica: Sendable {
    /// The replica as the log names it (never its password).
    public let name: String
    /// Opens the replica's cloud (read-only use); called again after a failure, not more often
    /// than the backoff allows.
    public let open: @Sendable () throws(CloudError) -> any CloudService
    /// The WAL byte offset the opened cloud has replayed now.
    public let replayed: @Sendable (any CloudService) throws(CloudError) -> UInt64
    /// The WAL byte offset the replica has replayed now, read on a connection of its own without
    /// opening the cloud: asked when `open` fails, to tell a replica that has not replayed the
    /// primary's tables yet (behind) from one that fails.
    public let probe: @Sendable () throws(CloudError) -> UInt64

    public init(name: String, open: @escaping @Sendable () throws(CloudError) -> any CloudService,
                replayed: @escaping @Sendable (any CloudService) throws(CloudError) -> UInt64,
                probe: @escaping @Sendable () throws(CloudError) -> UInt64) {
        self.name = name
        self.open = open
        self.replayed = replayed
        self.probe = probe
    }
}
