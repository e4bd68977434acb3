import CloudSyncService
import CloudSyncCore

/// One device's sync of its local model for its account: the use case that `store sync` and
/// `otp sync` run (through the CLI's `SyncVerb`, which keeps the toggle, the prompts and the
/// printing), and that a sync engine can call. It pushes and pulls the account's private zones
/// and, when the device's `shared_zones` setting is on, the zones other accounts shared with it
/// (`AccountSync+SharedZones`); `sync off --delete-cloud-data` deletes the model's own zones.
public struct AccountSync {
    /// What a sync tells its caller while it runs, for the caller to word (no plaintext, no output here).
    public enum Event: Sendable, Equatable {
        /// A zone `owner` (a login) no longer shares: dropped from the owner's device file with
        /// `records` local records, `unpushed` of them changes that can no longer be pushed.
        case unsharedZoneDropped(zone: String, owner: String, records: Int, unpushed: Int)
        /// A zone unshared during this sync: the change to `recordName` was refused and dropped.
        case unsharedChangeDropped(zone: String, owner: String, recordName: String)
    }

    /// The cloud the sync talks to (the retrying one: transient failures are retried).
    public let cloud: any CloudService
    /// This device's store.
    public let store: DeviceStore
    /// The container synced.
    public let container: String
    /// The request for one database of the container, as this device.
    public let request: @Sendable (DatabaseScope) -> DatabaseRequest
    /// The cloud's sharing service, nil when it offers none (shared zones are then skipped).
    public let sharing: (any SharingService)?
    /// The device file of one owner's shared zones (a login), created on first use.
    public let sharedStore: (String) throws -> DeviceStore
    /// Makes the model's adapter (given whether BYTES travel inline).
    public let makeAdapter: @Sendable (_ forceData: Bool) -> any ModelAdapter

    /// A sync of `store`'s model over `cloud`.
    public init(cloud: any CloudService, store: DeviceStore, container: String,
                request: @escaping @Sendable (DatabaseScope) -> DatabaseRequest, sharing: (any SharingService)?,
                sharedStore: @escaping (String) throws -> DeviceStore,
                makeAdapter: @escaping @Sendable (_ forceData: Bool) -> any ModelAdapter) {
        self.cloud = cloud
        self.store = store
        self.container = container
        self.request = request
        self.sharing = sharing
        self.sharedStore = sharedStore
        self.makeAdapter = makeAdapter
    }

    /// Pushes and pulls the private zones with `adapter` (the model's, wrapped as the account's
    /// encryption needs), then the accepted shared zones when the device's setting is on; the
    /// reports merged. Failed records are in the report, not thrown.
    public func sync(adapter: any ModelAdapter, options: SyncOptions, forceData: Bool,
                     progress: (SyncProgress) -> Void = { _ in }, events: (Event) -> Void = { _ in }) throws -> SyncReport {
        let synchronizer = Synchronizer(cloud: cloud, store: store, request: request(.private), adapter: adapter, options: options)
        var report = try synchronizer.sync(progress: progress)
        if try store.syncState(container: container, AccountSync.sharedZonesKey) == "on" {
            report.absorb(try syncSharedZones(options: options, forceData: forceData, events: events))
        }
        return report
    }

    /// Deletes the model's own zones from the cloud (`Synchronizer.deleteCloudData`); returns their names.
    public func deleteCloudData(options: SyncOptions, forceData: Bool) throws -> [String] {
        let synchronizer = Synchronizer(cloud: cloud, store: store, request: request(.private),
                                        adapter: makeAdapter(forceData), options: options)
        return try synchronizer.deleteCloudData()
    }
}
