import CloudSyncCloud
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
    /// Deletes the store's zones from the cloud (for privacy, when sync is turned off) and
    /// resets this device so that turning sync on again re-creates them and uploads every
    /// local record. Local records are kept. Returns the zones deleted.
    public func deleteCloudData() throws(CloudError) -> [String] {
        var zones = Set(try store.localZoneNames(container: container))
        zones.insert(adapter.zoneName)
        zones.formUnion((try store.syncState(container: container, "zones_created") ?? "").split(separator: "\n").map(String.init))
        var deleted: [String] = []
        for zone in zones.sorted() {
            do {
                try cloud.deleteZones([zone], purge: false, in: request)
                deleted.append(zone)
            } catch where error.code == .zoneNotFound || error.code == .userDeletedZone {
                continue
            }
        }
        let device = request.deviceID
        let now = clock()
        for zone in zones.sorted() {
            try store.dropZone(request.zoneID(zone), scope)
            try store.transaction { _ = try store.markZonePending(container: container, zone: zone, device: device, now: now) }
        }
        try store.setSyncState(container: container, "zones_created", nil)
        try store.setDatabaseToken(nil, scope, now: now)
        return deleted
    }
}
