import CloudSyncCore
import CloudSyncCloud

/// Something the fetch did, reported as it happens (so output can stream).
public enum FetchEvent: Sendable {
    /// A record was created or updated in the cache.
    case recordChanged(Record)
    /// A record was removed from the cache.
    case recordDeleted(RecordDeletion)
    /// A zone went away on the server; its cached records were dropped.
    case zoneDeleted(ZoneID, ZoneDeletionReason, droppedRecords: Int)
    /// A zone's token had expired; its cache was dropped and the zone is fetched again whole.
    case zoneReset(ZoneID, reason: String)
    /// A page was committed together with its token.
    case pageApplied(ZoneID, changed: Int, deleted: Int, moreComing: Bool)
}

/// Totals of one fetch.
public struct FetchSummary: Sendable, Hashable {
    public var changedRecords = 0
    public var deletedRecords = 0
    public var zonesFetched = 0
    public var zonesDeleted = 0
    public var pages = 0

    public init() {}

    /// True when the fetch brought nothing new.
    public var isEmpty: Bool { changedRecords == 0 && deletedRecords == 0 && zonesDeleted == 0 }
}

/// The two-phase fetch of seed 001: database changes first, then the changes of each changed
/// zone page by page, each page applied together with its zone token in one transaction, and
/// the database token stored only after every zone was applied. A crash at any point loses
/// nothing and never moves a token past data that was not applied.
public struct ChangeFetcher {
    public let cloud: any CloudService
    public let store: DeviceStore
    public let request: DatabaseRequest
    public let clock: CloudClock
    /// Records per page (CKFetchRecordZoneChangesOperation's resultsLimit).
    public var pageSize: Int
    /// Applies pulled changes to a local model in the same transaction as the cache and token.
    public var sink: (any LocalSink)?
    /// Whose cache and tokens the fetch reads and advances: the raw cache (`fetch-changes`)
    /// or the local store's base (the synchronizer's pull).
    public var cursor: CacheCursor = .raw

    public init(cloud: any CloudService, store: DeviceStore, request: DatabaseRequest, pageSize: Int = 2000,
                clock: @escaping CloudClock = systemClock) {
        self.cloud = cloud
        self.store = store
        self.request = request
        self.pageSize = pageSize
        self.clock = clock
    }

    var scope: CacheScope { CacheScope(container: request.container, scope: request.scope, cursor: cursor) }

    /// Fetches what changed. With `zones`, only those zones are fetched (directly, without the
    /// database phase, and the database token is left alone). With `reset`, tokens are ignored
    /// and the cache of each fetched zone is rebuilt.
    @discardableResult
    public func fetch(zones: [String]? = nil, reset: Bool = false,
                      onEvent: (FetchEvent) throws -> Void = { _ in }) throws(CloudError) -> FetchSummary {
        var summary = FetchSummary()
        if let zones {
            for name in zones {
                try fetchZone(request.zoneID(name), reset: reset, summary: &summary, onEvent: onEvent)
            }
            return summary
        }
        var token = reset ? nil : try store.databaseToken(scope)
        var changed: [ZoneID] = []
        var deleted: [(zoneID: ZoneID, reason: ZoneDeletionReason)] = []
        var newToken: ServerChangeToken
        var full = token == nil
        while true {
            let page: DatabaseChanges
            do {
                page = try cloud.fetchDatabaseChanges(since: token, limit: pageSize, in: request)
            } catch let error where error.code == .changeTokenExpired && token != nil {
                token = nil
                full = true
                changed = []
                deleted = []
                continue
            }
            for zone in page.deletedZones {
                changed.removeAll { $0 == zone.zoneID }
                deleted.append(zone)
            }
            for zone in page.changedZones where !changed.contains(zone) { changed.append(zone) }
            token = page.token
            newToken = page.token
            if !page.moreComing { break }
        }
        for (zoneID, reason) in deleted {
            let hasToken = try store.zoneToken(zoneID, scope) != nil
            let cached = try store.cachedRecordCount(zoneID, scope)
            guard hasToken || cached > 0 else { continue }
            let dropped = try store.dropZone(zoneID, scope, reason: reason, sink: sink)
            summary.zonesDeleted += 1
            try report(onEvent, .zoneDeleted(zoneID, reason, droppedRecords: dropped))
        }
        if full {
            // A full listing names every live zone: forget cached zones it does not name.
            for zoneID in try store.cachedZones(scope) where !changed.contains(zoneID) {
                let dropped = try store.dropZone(zoneID, scope, reason: .deleted, sink: sink)
                summary.zonesDeleted += 1
                try report(onEvent, .zoneDeleted(zoneID, .deleted, droppedRecords: dropped))
            }
        }
        for zoneID in changed {
            try fetchZone(zoneID, reset: reset, summary: &summary, onEvent: onEvent)
        }
        try store.setDatabaseToken(newToken, scope, now: clock())
        return summary
    }

    func report(_ onEvent: (FetchEvent) throws -> Void, _ event: FetchEvent) throws(CloudError) {
        do {
            try onEvent(event)
        } catch let error as CloudError {
            throw error
        } catch {
            throw CloudError(.internalError, "\(error)")
        }
    }

    func fetchZone(_ zoneID: ZoneID, reset: Bool, summary: inout FetchSummary,
                   onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
        var token = try store.zoneToken(zoneID, scope)
        // Only a fetch from the start needs to know whether records are cached: counting them
        // on every incremental fetch is a scan of the whole zone.
        if reset || token == nil, try store.cachedRecordCount(zoneID, scope) > 0 {
            // Fetching from the start rebuilds the zone: drop what is cached first.
            try store.dropZone(zoneID, scope, reason: nil, sink: sink)
            token = nil
        }
        summary.zonesFetched += 1
        while true {
            let page: ZoneChanges
            do {
                page = try cloud.fetchZoneChanges(zoneID.zoneName, since: token, limit: pageSize, in: request)
            } catch let error where error.code == .changeTokenExpired && token != nil {
                try store.dropZone(zoneID, scope, reason: nil, sink: sink)
                token = nil
                try report(onEvent, .zoneReset(zoneID, reason: error.reason))
                continue
            } catch let error where (error.code == .zoneNotFound || error.code == .userDeletedZone) {
                let dropped = try store.dropZone(zoneID, scope, reason: error.code == .userDeletedZone ? .purged : .deleted,
                                                 sink: sink)
                summary.zonesDeleted += 1
                try report(onEvent, .zoneDeleted(zoneID, error.code == .userDeletedZone ? .purged : .deleted,
                                                 droppedRecords: dropped))
                return
            }
            try store.apply(CachePage(zoneID: zoneID, changed: page.changed, deleted: page.deleted.map(\.recordID),
                                      token: page.token, encodedFields: page.encodedFields), scope, now: clock(), sink: sink)
            summary.pages += 1
            summary.changedRecords += page.changed.count
            summary.deletedRecords += page.deleted.count
            for record in page.changed { try report(onEvent, .recordChanged(record)) }
            for deletion in page.deleted { try report(onEvent, .recordDeleted(deletion)) }
            try report(onEvent, .pageApplied(zoneID, changed: page.changed.count, deleted: page.deleted.count,
                                             moreComing: page.moreComing))
            token = page.token
            if !page.moreComing { return }
        }
    }
}
