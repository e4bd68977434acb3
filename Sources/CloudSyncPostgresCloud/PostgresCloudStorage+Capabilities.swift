import CloudSyncService

extension PostgresCloudStorage {
    /// A PostgreSQL cloud can be checked, copied and counted, and groups its commits.
    var storageCapabilities: StorageCapabilities {
        StorageCapabilities(checking: self, copying: self, figures: self, writeGrouping: self)
    }
}
