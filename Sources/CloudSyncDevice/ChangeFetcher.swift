import CloudSyncCore
import CloudSyncService

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
    /// The device's tokens came from another store epoch (the cloud file was replaced or
    /// recreated): every token and cached zone of this database was dropped, and the fetch
    /// starts from scratch.
    case epochChanged(droppedZones: Int, droppedRecords: Int)
}

/// Totals of one fetch.
public struct FetchSummary: Sendable, Hashable {
    public var changedRecords = 0
    public var deletedRecords = 0
    public var zonesFetched = 0
    public var zonesDeleted = 0
    public var pages = 0
    /// Changed records the feed returned that were versions the same sync had just pushed
    /// (`ChangeFetcher.pushed`): already the local base, so not applied and not counted in
    /// `changedRecords`.
    public var ownPushedRecords = 0
    /// The tokens came from another store epoch and everything was fetched from scratch.
    public var epochChanged = false

    public init() {}

    /// True when the fetch brought nothing new.
    public var isEmpty: Bool { changedRecords == 0 && deletedRecords == 0 && zonesDeleted == 0 && !epochChanged }
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
    /// The versions the synchronizer pushed earlier in the same sync: a changed record that
    /// comes back with its pushed change tag is skipped (see `PushedVersions`).
    var pushed: PushedVersions?

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
            try fetchNamed(zones, reset: reset, summary: &summary, onEvent: onEvent)
            return summary
        }
        let listing = try listDatabaseChanges(reset: reset, summary: &summary, onEvent: onEvent)
        for (zoneID, reason) in listing.deleted {
            let hasToken = try store.zoneToken(zoneID, scope) != nil
            let cached = try store.cachedRecordCount(zoneID, scope)
            guard hasToken || cached > 0 else { continue }
            try dropDeletedZone(zoneID, reason: reason, summary: &summary, onEvent: onEvent)
        }
        if listing.full {
            // A full listing names every live zone: forget cached zones it does not name.
            for zoneID in try store.cachedZones(scope) where mineToList(zoneID) && !listing.changed.contains(zoneID) {
                try dropDeletedZone(zoneID, reason: .deleted, summary: &summary, onEvent: onEvent)
            }
        }
        for zoneID in listing.changed {
            try fetchZone(ZoneFetch(zoneID: zoneID, reset: reset), summary: &summary, onEvent: onEvent)
        }
        try store.setDatabaseToken(listing.token, scope, now: clock())
        return summary
    }

    /// Fetches the zones asked for by name, without the database phase. The database token (if
    /// any) tells which store epoch this device's tokens are from: a zone of a replaced cloud
    /// may have no token of its own to expire.
    func fetchNamed(_ zones: [String], reset: Bool, summary: inout FetchSummary,
                    onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
        var witness = try store.databaseToken(scope)
        for name in zones {
            try fetchZone(ZoneFetch(zoneID: request.zoneID(name), reset: reset, named: true, epochWitness: witness),
                          summary: &summary, onEvent: onEvent)
            if summary.epochChanged { witness = nil }
        }
    }

    /// What the database phase found: the zones to fetch and to drop, and the token to store
    /// once every zone was applied.
    struct DatabaseListing {
        var changed: [ZoneID]
        var deleted: [(zoneID: ZoneID, reason: ZoneDeletionReason)]
        var token: ServerChangeToken
        /// The listing started from no token, so it names every live zone.
        var full: Bool
    }

    /// The database phase: every page of the zones changed and deleted since the database
    /// token. An expired token lists again from the start (everything dropped first when it
    /// came from another store epoch).
    func listDatabaseChanges(reset: Bool, summary: inout FetchSummary,
                             onEvent: (FetchEvent) throws -> Void) throws(CloudError) -> DatabaseListing {
        var token = reset ? nil : try store.databaseToken(scope)
        var expired: ServerChangeToken?
        var changed: [ZoneID] = []
        var deleted: [(zoneID: ZoneID, reason: ZoneDeletionReason)] = []
        var full = token == nil
        while true {
            let page: DatabaseChanges
            do {
                page = try cloud.fetchDatabaseChanges(since: token, limit: pageSize, in: request)
            } catch let error where error.code == .changeTokenExpired && token != nil {
                expired = token
                token = nil
                full = true
                changed = []
                deleted = []
                continue
            }
            if let old = expired {
                expired = nil
                if ChangeFetcher.epochsDiffer(old, page.token, kind: .database) {
                    try dropEverything(summary: &summary, onEvent: onEvent)
                }
            }
            // A fetch of one owner's shared zones (`sharedOwner`) leaves the others' alone.
            for zone in page.deletedZones where mineToList(zone.zoneID) {
                changed.removeAll { $0 == zone.zoneID }
                deleted.append(zone)
            }
            for zone in page.changedZones where mineToList(zone) && !changed.contains(zone) { changed.append(zone) }
            token = page.token
            if !page.moreComing { return DatabaseListing(changed: changed, deleted: deleted, token: page.token, full: full) }
        }
    }

    /// Whether a full listing of this fetch speaks for a cached zone (one owner's fetch in the
    /// shared database does not speak for the zones of other owners).
    func mineToList(_ zoneID: ZoneID) -> Bool {
        request.scope != .shared || request.sharedOwner == nil || zoneID.ownerRecordName == request.sharedOwner
    }

    /// Forgets that this device created a zone that went away, when it is one of the caller's
    /// own: a shared zone of another owner that went away (unshared) says nothing of the
    /// caller's own zone of the same name.
    func forgetCreated(_ zoneID: ZoneID) throws(CloudError) {
        guard request.scope != .shared || zoneID.ownerRecordName == request.userRecordName else { return }
        try store.forgetCreatedZone(zoneID.zoneName, container: request.container)
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

    // MARK: Store epochs

    /// Whether an expired token of `kind` and a fresh database token were issued by different
    /// cloud stores (the cloud file was replaced or recreated). Tokens this codec cannot read
    /// compare as the same.
    static func epochsDiffer(_ expired: ServerChangeToken, _ database: ServerChangeToken, kind: TokenPayload.Kind) -> Bool {
        guard let x = epoch(of: expired, kind), let y = epoch(of: database, .database) else { return false }
        return x != y
    }

    /// The store epoch a token of `kind` was issued under, or nil when this codec cannot read it.
    static func epoch(of token: ServerChangeToken, _ kind: TokenPayload.Kind) -> UInt64? {
        (try? ChangeTokenCodec.decode(token.rawValue, expecting: kind))?.epoch
    }

    /// Whether an expired token came from another store epoch: compared with the cloud's own
    /// epoch, read from a database token (one small request, made only after a token expired).
    func tokenFromAnotherEpoch(_ expired: ServerChangeToken, kind: TokenPayload.Kind) throws(CloudError) -> Bool {
        let probe = try cloud.fetchDatabaseChanges(since: nil, limit: 1, in: request)
        return ChangeFetcher.epochsDiffer(expired, probe.token, kind: kind)
    }

    /// Drops every token and cached zone of this database and cursor (a sink keeps the local
    /// records and marks them for upload, as for a zone the cloud lost), and says so.
    func dropEverything(summary: inout FetchSummary, onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
        var zones = 0, records = 0
        for zoneID in try store.cachedZones(scope) {
            // Not deleted on purpose: the cloud was replaced, so the zone counts as lost (a
            // store sink keeps its records and uploads them again), as after a purge.
            records += try store.dropZone(zoneID, scope, reason: .purged, sink: sink)
            pushed?.forget(zone: zoneID.zoneName)
            try forgetCreated(zoneID)
            zones += 1
        }
        try store.setDatabaseToken(nil, scope, now: clock())
        pushed?.forgetAll()
        summary.epochChanged = true
        try report(onEvent, .epochChanged(droppedZones: zones, droppedRecords: records))
    }
}
