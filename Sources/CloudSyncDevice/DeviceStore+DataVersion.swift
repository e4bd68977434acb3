import CloudSyncCore

extension DeviceStore {
    /// SQLite's `PRAGMA data_version` of this store's connection: it changes when another
    /// connection (another process of this device, say `store put`) committed to the file since
    /// the last read, and never for this connection's own commits. `SyncEngine` compares it
    /// across a file-change wake-up to tell a local edit from its own writes.
    public func dataVersion() throws(CloudError) -> Int64 {
        try guarded { try connection.scalarInt("PRAGMA data_version") ?? 0 }
    }
}
