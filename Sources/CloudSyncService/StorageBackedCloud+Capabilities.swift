import CloudSyncCore

extension StorageBackedCloud {
    /// Everything: the rules over a storage this process holds answer every capability.
    public var capabilities: CloudCapabilities {
        CloudCapabilities(data: self, schema: self, sharing: self, users: self, admin: self)
    }
}
