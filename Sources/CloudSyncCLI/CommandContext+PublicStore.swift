import CloudSyncDevice

extension Settings {
    /// This device's public store for the environment (seed 002's `public.sqlite`): the mirror
    /// of public-database record types, a file apart from the private store.
    public var publicStorePath: String {
        DeviceStore.publicStorePath(home: environmentHome, account: account, device: device)
    }
}

extension CommandContext {
    /// Opens this device's public store without touching the cloud (creating it, mode 0600, in
    /// 0700 folders), once per invocation. It never holds private data, and the private store
    /// never holds public data: each has its own history, pending changes, cache and conflicts.
    public func publicDeviceStore() throws -> DeviceStore {
        try memoized("cloudsync.publicDeviceStore") {
            let path = settings.publicStorePath
            try FileSystem.makeDirectories(FileSystem.parent(of: path), mode: 0o700)
            return try DeviceStore(path: path)
        }
    }
}
