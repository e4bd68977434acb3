import CloudSyncCLI
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice

/// The CLI side of syncing shared zones (`AccountSync+SharedZones` does the work): the setting's
/// key, each owner's device file opened once per invocation, and the warnings worded.
extension SyncVerb {
    /// The store-config key: `on` to include accepted shared zones in syncs.
    public static let sharedZonesKey = AccountSync.sharedZonesKey

    /// The device file of `owner`'s shared zones (a login), created on first use.
    public static func sharedStore(_ context: CommandContext, owner: String) throws -> DeviceStore {
        _ = try context.deviceStore()
        return try context.memoized("cloudsync.sharedStore." + owner) {
            try DeviceStore(path: DeviceStore.sharedPath(devicePath: context.settings.deviceStorePath, owner: owner))
        }
    }

    /// The use case over this invocation's session and device store.
    func accountSync(_ context: CommandContext, session: CloudSession, store: DeviceStore) -> AccountSync {
        AccountSync(cloud: session.retryingCloud, store: store, container: context.settings.container,
                    request: { [session] scope in session.request(scope) }, sharing: session.capabilities.sharing,
                    sharedStore: { owner in try SyncVerb.sharedStore(context, owner: owner) }, makeAdapter: makeAdapter)
    }

    /// Says what a sync's event means, as a warning.
    static func warn(_ event: AccountSync.Event, _ context: CommandContext) {
        switch event {
        case .unsharedChangeDropped(let zone, let login, let recordName):
            context.output.warning("""
                zone \(zone) of \(login) is no longer shared with you: your change to \(recordName) was dropped
                """)
        case .unsharedZoneDropped(let zone, let owner, let dropped, let unpushed):
            let lost = unpushed == 0 ? "" : ", \(unpushed) unpushed change\(unpushed == 1 ? "" : "s") lost"
            context.output.warning("""
                zone \(zone) of \(owner) is no longer shared with you: dropped \(dropped) local record\(dropped == 1 ? "" : "s")\(.text(lost))
                """)
        }
    }
}
