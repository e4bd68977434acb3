import CloudSyncService
import CloudSyncCore

/// Seed 000's toggle: the account-wide key-value boolean `icloud_sync` (default off) decides
/// whether a device talks to the cloud about data at all. History records either way.
public enum SyncToggle {
    /// The key-value key of the toggle.
    public static let key = "icloud_sync"

    /// The toggle as this device's copy of the key-value store has it (off when unset).
    public static func isOn(store: DeviceStore, container: String) throws(CloudError) -> Bool {
        switch try store.keyValue(container: container, key) {
        case .bool(let on)?: on
        case .number(let n)?: n != 0
        case .string(let s)?: s == "true" || s == "on" || s == "1"
        default: false
        }
    }

    /// Sets the toggle locally (pending until the key-value store syncs).
    public static func set(_ on: Bool, store: DeviceStore, container: String, now: Int64) throws(CloudError) {
        try store.setKeyValue(container: container, key, .bool(on), now: now)
    }
}

extension Synchronizer {
    /// Deletes the store's own zones from the cloud (for privacy, when sync is turned off): its
    /// default zone and the zones its syncs made (`ownedZones`), never a zone it only pulled
    /// (made by `zone create`, `record save` or another device). Resets this device for those
    /// zones so that turning sync on again re-creates them and uploads every local record.
    /// Local records are kept. Returns the zones deleted.
    public func deleteCloudData() throws(CloudError) -> [String] {
        let zones = try ownedZones()
        var deleted: [String] = []
        for zone in zones {
            do {
                try cloud.deleteZones([zone], purge: false, in: request)
                deleted.append(zone)
            } catch where error.code == .zoneNotFound || error.code == .userDeletedZone {
                continue
            }
        }
        let device = request.deviceID
        let now = clock()
        for zone in zones {
            try store.dropZone(request.zoneID(zone), scope)
            try store.transaction { _ = try store.markZonePending(container: container, zone: zone, device: device, now: now) }
            try store.forgetCreatedZone(zone, container: container)
        }
        // The next database fetch starts from scratch and finds the zones gone.
        try store.setDatabaseToken(nil, scope, now: now)
        return deleted
    }
}
