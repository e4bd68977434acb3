import CloudSyncCore

/// The database a write transaction writes, as the storage's per-database write lock keys it:
/// (storage container, scope, owner). A storage that runs writers of different databases in
/// parallel may queue writers of one database in the process before they take a connection
/// (`CloudStorage.write(database:_:)`), so one busy database holds at most one connection.
public struct DatabaseWriteKey: Hashable, Sendable {
    /// The container as stored (`DatabaseRequest.storageContainer`).
    public let container: String
    /// The database's scope.
    public let scope: DatabaseScope
    /// The owner's user record name; `""` for the public database.
    public let owner: String

    /// The key of (container, scope, owner).
    public init(container: String, scope: DatabaseScope, owner: String) {
        self.container = container
        self.scope = scope
        self.owner = owner
    }
}
