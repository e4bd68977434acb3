import CloudSyncCLI
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
import Glibc

extension LiveValueSource {
    /// The providers of the builtin families: zone names, record types and record names read
    /// from the cloud, and key-value store keys read from the device's copy, as the line's
    /// account and device. They never create a cloud or device file that does not exist yet,
    /// and they read small samples only, so completion stays quick on big zones.
    public static let cloud = LiveValueSource([
        .zoneName: CloudLiveValues.zoneNames,
        .recordType: CloudLiveValues.recordTypes,
        .recordName: CloudLiveValues.recordNames,
        .kvKey: CloudLiveValues.keyValueKeys,
    ])
}

/// The cloud-backed providers of `LiveValueSource.cloud`.
enum CloudLiveValues {
    /// How many records one sample reads.
    static let sampleSize = 400
    /// How many zones a record-type sample visits.
    static let maximumZones = 25

    /// The live zones of the database of `--database` (default private).
    static func zoneNames(_ query: LiveValueQuery) throws -> [String] {
        guard let (session, request) = try open(query) else { return [] }
        return try session.cloud.fetchAllZones(in: request).map(\.zoneID.zoneName)
    }

    /// Record types seen in the first changes of each change-tracking zone (or of `--zone`).
    /// `_defaultZone` does not track changes, so its types are only found through other zones.
    static func recordTypes(_ query: LiveValueQuery) throws -> [String] {
        guard let (session, request) = try open(query), request.scope != .public else { return [] }
        var zones: [String]
        if let zone = query.arguments.value("zone") {
            zones = [zone]
        } else {
            zones = try session.cloud.fetchAllZones(in: request)
                .filter { $0.capabilities.contains(.fetchChanges) }
                .map(\.zoneID.zoneName)
        }
        zones = zones.filter { $0 != ZoneID.defaultZoneName }.prefix(maximumZones).map { $0 }
        var types: [String] = []
        for zone in zones {
            guard let page = try? session.cloud.fetchZoneChanges(zone, since: nil, limit: sampleSize, in: request)
            else { continue }
            types += page.changed.map(\.recordType)
        }
        return Array(Set(types)).sorted()
    }

    /// Record names of `--zone` (default `_defaultZone`): of the record type typed before the
    /// name if there is one (`record save Note <TAB>`), else of the zone's first changes.
    static func recordNames(_ query: LiveValueQuery) throws -> [String] {
        guard let (session, request) = try open(query) else { return [] }
        let zone = query.arguments.value("zone") ?? ZoneID.defaultZoneName
        if let type = query.arguments.argument("type") {
            let page = try session.cloud.queryRecords(RecordQuery(recordType: type, zoneName: zone, limit: sampleSize),
                                                      in: request)
            return page.records.map(\.recordID.recordName)
        }
        guard zone != ZoneID.defaultZoneName, request.scope != .public else { return [] }
        let page = try session.cloud.fetchZoneChanges(zone, since: nil, limit: sampleSize, in: request)
        return page.changed.map(\.recordID.recordName).sorted()
    }

    /// The keys of this device's copy of the key-value store (`kv get <Tab>`).
    static func keyValueKeys(_ query: LiveValueQuery) throws -> [String] {
        let settings = query.settings
        let path = settings.deviceStorePath
        guard access(path, F_OK) == 0 else { return [] }
        return try DeviceStore(path: path).keyValues(container: settings.container).map(\.key)
    }

    /// The session and database request of the query, or nil when the embedded cloud file does
    /// not exist (completion must not create it).
    private static func open(_ query: LiveValueQuery) throws -> (CloudSession, DatabaseRequest)? {
        if try CloudLocator(parsing: query.settings.cloudURL).isKnownAbsent {
            return nil
        }
        let scopeName = query.arguments.value("database") ?? DatabaseScope.private.rawValue
        guard let scope = DatabaseScope(argument: scopeName) else { return nil }
        let session = try query.context().session()
        return (session, session.request(scope))
    }
}
