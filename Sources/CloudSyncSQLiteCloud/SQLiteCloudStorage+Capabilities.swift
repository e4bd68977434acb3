import CloudSyncService

extension SQLiteCloudStorage {
    /// A cloud file can be checked, copied and counted; it has no group commit (one writer).
    var storageCapabilities: StorageCapabilities {
        StorageCapabilities(checking: self, copying: self, figures: self)
    }
}
