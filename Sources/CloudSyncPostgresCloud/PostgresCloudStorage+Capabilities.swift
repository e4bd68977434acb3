import CloudSyncService

extension PostgresCloudStorage {
    /// A PostgreSQL cloud can be checked, copied and counted, groups its commits, and confirms
    /// a cached token with a write's first reads (no round trip of its own).
    var storageCapabilities: StorageCapabilities {
        var capabilities = StorageCapabilities(checking: self, copying: self, figures: self, writeGrouping: self)
        capabilities.confirmsCredentialsInWrites = true
        return capabilities
    }
}
