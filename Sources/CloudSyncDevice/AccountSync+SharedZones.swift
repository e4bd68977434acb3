import CloudSyncService
import CloudSyncCore

/// `store config shared-zones on` (issue 18): `store sync` also syncs the zones other accounts
/// shared with this one and it accepted, each owner's in a device file of its own
/// (`DeviceStore.sharedPath`, what `store … --owner OWNER` reads and writes): pushes the
/// participant's edits and pulls the owner's and other participants', with the same merge
/// policy and conflict log. A zone that stops being shared is dropped from that file.
extension AccountSync {
    /// The store-config key: `on` to include accepted shared zones in syncs.
    public static let sharedZonesKey = "shared_zones"
    /// The owners whose shared zones this device synced (`userRecordName\tlogin` lines), so that
    /// a zone unshared since is still fetched once and dropped.
    static let sharedOwnersKey = "shared_zone_owners"

    /// Syncs every accepted shared zone (and, once more, those of owners that stopped sharing).
    func syncSharedZones(options: SyncOptions, forceData: Bool, events: (Event) -> Void) throws -> SyncReport {
        var total = SyncReport()
        guard let sharing else { return total }
        var owners: [String: String] = [:]
        for line in (try store.syncState(container: container, AccountSync.sharedOwnersKey) ?? "").split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if parts.count == 2 { owners[parts[0]] = parts[1] }
        }
        var current: [String: String] = [:]
        for share in try sharing.acceptedShares(zoneName: nil, in: request(.shared)) {
            current[share.zoneID.ownerRecordName] = share.ownerName ?? share.zoneID.ownerRecordName
        }
        owners.merge(current) { _, new in new }
        for (owner, login) in owners.sorted(by: { $0.value < $1.value }) {
            let shared = try sharedStore(login)
            let zones = try sharing.acceptedShares(zoneName: nil, in: request(.shared))
                .filter { $0.zoneID.ownerRecordName == owner }.map(\.zoneID.zoneName)
            // A zone unshared since the last sync: dropped now, before a push to it is refused.
            for zone in try shared.heldZoneNames(container: container) where !zones.contains(zone) {
                try dropUnshared(zone, owner: login, store: shared, events: events)
            }
            // The zones exist (they are the owner's): the synchronizer must not try to make them.
            try shared.setZoneList(zones, container: container, DeviceStore.zonesCreatedKey)
            // An owner who stopped sharing: pull only, which drops the zones (a push would be refused).
            var ownerOptions = options
            if current[owner] == nil { ownerOptions.downloadOnly = true }
            let synchronizer = Synchronizer(cloud: cloud, store: shared,
                                            request: request(.shared).owned(by: owner),
                                            adapter: makeAdapter(forceData), options: ownerOptions)
            var report = try synchronizer.sync()
            // Unshared during this sync: the push was refused (77) and the pull dropped the zone.
            let held = Set(try shared.heldZoneNames(container: container))
            for (id, error) in report.failures where error.code == .permissionFailure && !held.contains(id.zoneID.zoneName) {
                report.failures[id] = nil
                events(.unsharedChangeDropped(zone: id.zoneID.zoneName, owner: login, recordName: id.recordName))
            }
            total.absorb(report)
        }
        let remembered = current.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }.joined(separator: "\n")
        try store.setSyncState(container: container, AccountSync.sharedOwnersKey, remembered)
        return total
    }

    /// Drops a zone `owner` no longer shares with this account from the owner's device file, and
    /// says what was lost (its records are the owner's; unpushed changes cannot be pushed any more).
    func dropUnshared(_ zone: String, owner: String, store: DeviceStore, events: (Event) -> Void) throws {
        let unpushed = try store.pendingCount(container: container, zone: zone)
        let dropped = try store.transaction {
            try store.dropUnsharedZone(container: container, zone: zone, device: request(.shared).deviceID,
                                       now: systemClock())
        }
        events(.unsharedZoneDropped(zone: zone, owner: owner, records: dropped, unpushed: unpushed))
    }
}
