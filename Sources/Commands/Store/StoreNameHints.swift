import CloudSyncCLI
import CloudSyncCore
import CloudSyncDevice

/// The names of `store put` checked against the local store (issue 30): a zone the device does
/// not know (no local record in it, not made by this device, not fetched from the cloud) is refused unless it is the store's default zone or `--create-zone` is given
/// (`--zone Ntoes` must not make a zone that reaches the cloud at the next sync), with the
/// nearest known zone suggested; a new record type or field close to a known one is warned of.
enum StoreNameHints {
    /// Throws not found (3) for a new zone that was not asked for.
    static func requireKnown(_ zone: String, store: DeviceStore, context: CommandContext, allowNew: Bool) throws {
        guard !allowNew, zone != LocalStoreDefaults.zoneName, zone != ZoneID.defaultZoneName else { return }
        let container = StoreCommand.container(context)
        // Known: zones with local records, zones this device made in the cloud (sync, `subscribe
        // init`), and the cloud's zones this device has fetched (`fetch-changes`).
        var known = try store.localZoneNames(container: container)
        known += try store.zoneList(container: container, DeviceStore.zonesCreatedKey)
        known += try store.zoneList(container: container, DeviceStore.storeZonesKey)
        let cached = try? store.cachedZones(CacheScope(container: container, scope: .private))
        known += (cached ?? []).map(\.zoneName)
        guard !known.contains(zone) else { return }
        var message = "the local store has no zone '\(zone)'; add --create-zone to start it (it reaches the cloud at the next sync)"
        if let hint = Suggestions.didYouMean(zone, among: known + [LocalStoreDefaults.zoneName]) { message += "\n" + hint }
        throw CLIError.notFound(message)
    }

    /// Warnings for a new record type, or new fields of a known type, close to known names.
    static func warnings(type: String, fields: [String], store: DeviceStore, context: CommandContext) throws -> [String] {
        let container = StoreCommand.container(context)
        let types = try store.localRecordTypes(container: container)
        guard types.contains(type) else {
            guard let hint = Suggestions.didYouMean(type, among: types) else { return [] }
            return ["'\(type)' is a new record type in the local store. \(hint)"]
        }
        let known = try store.localFieldNames(container: container, type: type)
        return fields.filter { !known.contains($0) }.compactMap { field in
            Suggestions.didYouMean(field, among: known).map { "'\(field)' is a new field of \(type). \($0)" }
        }
    }
}
