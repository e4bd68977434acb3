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
            // The database token (if any) tells which store epoch this device's tokens are from:
            // a zone of a replaced cloud may have no token of its own to expire.
            var witness = try store.databaseToken(scope)
            for name in zones {
                try fetchZone(request.zoneID(name), reset: reset, named: true, epochWitness: witness,
                              summary: &summary, onEvent: onEvent)
                if summary.epochChanged { witness = nil }
            }
            return summary
        }
        var token = reset ? nil : try store.databaseToken(scope)
        var expired: ServerChangeToken?
        var changed: [ZoneID] = []
        var deleted: [(zoneID: ZoneID, reason: ZoneDeletionReason)] = []
        var newToken: ServerChangeToken
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
            let mine = { (zoneID: ZoneID) in
                request.scope != .shared || request.sharedOwner == nil || zoneID.ownerRecordName == request.sharedOwner
            }
            for zone in page.deletedZones where mine(zone.zoneID) {
                changed.removeAll { $0 == zone.zoneID }
                deleted.append(zone)
            }
            for zone in page.changedZones where mine(zone) && !changed.contains(zone) { changed.append(zone) }
            token = page.token
            newToken = page.token
            if !page.moreComing { break }
        }
        for (zoneID, reason) in deleted {
            let hasToken = try store.zoneToken(zoneID, scope) != nil
            let cached = try store.cachedRecordCount(zoneID, scope)
            guard hasToken || cached > 0 else { continue }
            let dropped = try store.dropZone(zoneID, scope, reason: reason, sink: sink)
            pushed?.forget(zone: zoneID.zoneName)
            try forgetCreated(zoneID)
            summary.zonesDeleted += 1
            try report(onEvent, .zoneDeleted(zoneID, reason, droppedRecords: dropped))
        }
        if full {
            // A full listing names every live zone: forget cached zones it does not name.
            for zoneID in try store.cachedZones(scope) where mineToList(zoneID) && !changed.contains(zoneID) {
                let dropped = try store.dropZone(zoneID, scope, reason: .deleted, sink: sink)
                pushed?.forget(zone: zoneID.zoneName)
                try forgetCreated(zoneID)
                summary.zonesDeleted += 1
                try report(onEvent, .zoneDeleted(zoneID, .deleted, droppedRecords: dropped))
            }
        }
        for zoneID in changed {
            try fetchZone(zoneID, reset: reset, named: false, summary: &summary, onEvent: onEvent)
        }
        try store.setDatabaseToken(newToken, scope, now: clock())
        return summary
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

    /// Fetches one zone. `named`: the zone was asked for by name (`--zone`), so a zone the
    /// cloud does not have and this device never knew is `zoneNotFound`; a zone from the
    /// database listing that vanished meanwhile is skipped.
    /// `epochWitness`: a stored database token whose epoch the first page's must match.
    func fetchZone(_ zoneID: ZoneID, reset: Bool, named: Bool, epochWitness: ServerChangeToken? = nil,
                   summary: inout FetchSummary, onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
        var witness = epochWitness
        var token = try store.zoneToken(zoneID, scope)
        // Only a fetch from the start needs to know whether records are cached: counting them
        // on every incremental fetch is a scan of the whole zone.
        var known = token != nil
        if reset || token == nil, case let cached = try store.cachedRecordCount(zoneID, scope), cached > 0 {
            known = true
            // Fetching from the start rebuilds the zone: drop what is cached first. Not when
            // every cached record is a version this sync pushed (a device's first sync): the
            // fetch from the start names each of them again, changed, deleted or as pushed.
            if reset || pushed?.count(zone: zoneID.zoneName) != cached {
                try store.dropZone(zoneID, scope, reason: nil, sink: sink)
                pushed?.forget(zone: zoneID.zoneName)
            }
            token = nil
        }
        // Set when the zone is fetched again from the start after a failure: its cache is
        // dropped when the first page arrives.
        var rebuild = false
        var checkedEpoch = false
        var missingOnce = false
        summary.zonesFetched += 1
        // The next page, fetched from the cloud on another thread while this one is applied to
        // the device file (see `prefetch`).
        var prefetched: BackgroundJob<ZoneChanges>?
        while true {
            let page: ZoneChanges
            do {
                if let next = prefetched {
                    prefetched = nil
                    page = try next.join()
                } else {
                    page = try fetchZonePage(zoneID, since: token)
                }
            } catch let error where error.code == .changeTokenExpired && token != nil {
                if !checkedEpoch, let old = token, try tokenFromAnotherEpoch(old, kind: .zone) {
                    try dropEverything(summary: &summary, onEvent: onEvent)
                } else {
                    try store.dropZone(zoneID, scope, reason: nil, sink: sink)
                    pushed?.forget(zone: zoneID.zoneName)
                    try report(onEvent, .zoneReset(zoneID, reason: error.reason))
                }
                checkedEpoch = true
                token = nil
                rebuild = false
                continue
            } catch let error where (error.code == .zoneNotFound || error.code == .userDeletedZone) {
                // Ask once more from the start before believing it: a zone the database listed
                // (or one this device holds) that one fetch calls missing may be a passing
                // failure, and dropping it would hide its records until the next change.
                if !missingOnce {
                    missingOnce = true
                    if token != nil { rebuild = true }
                    token = nil
                    continue
                }
                guard known else {
                    if named { throw error }
                    summary.zonesFetched -= 1
                    return
                }
                let reason: ZoneDeletionReason = error.code == .userDeletedZone ? .purged : .deleted
                let dropped = try store.dropZone(zoneID, scope, reason: reason, sink: sink)
                pushed?.forget(zone: zoneID.zoneName)
                try forgetCreated(zoneID)
                summary.zonesDeleted += 1
                try report(onEvent, .zoneDeleted(zoneID, reason, droppedRecords: dropped))
                return
            }
            if let stored = witness {
                witness = nil
                if ChangeFetcher.epoch(of: stored, .database) != nil,
                   ChangeFetcher.epoch(of: stored, .database) != ChangeFetcher.epoch(of: page.token, .zone) {
                    try dropEverything(summary: &summary, onEvent: onEvent)
                }
            }
            if rebuild {
                // The zone is fetched again from the start after its token was dropped: the
                // cache starts over in the transaction of the first page.
                rebuild = false
                try store.dropZone(zoneID, scope, reason: nil, sink: sink)
                pushed?.forget(zone: zoneID.zoneName)
            }
            let (changed, encoded, own) = withoutPushedVersions(page)
            if page.moreComing { prefetched = prefetch(zoneID, since: page.token) }
            try store.apply(CachePage(zoneID: zoneID, changed: changed, deleted: page.deleted.map(\.recordID),
                                      token: page.token, encodedFields: encoded), scope, now: clock(), sink: sink)
            summary.pages += 1
            summary.changedRecords += changed.count
            summary.deletedRecords += page.deleted.count
            summary.ownPushedRecords += own
            for record in changed { try report(onEvent, .recordChanged(record)) }
            for deletion in page.deleted { try report(onEvent, .recordDeleted(deletion)) }
            try report(onEvent, .pageApplied(zoneID, changed: changed.count, deleted: page.deleted.count,
                                             moreComing: page.moreComing))
            token = page.token
            if !page.moreComing { return }
        }
    }

    /// One page of a zone's changes. With versions of this zone pushed by the same sync, the
    /// cloud may send those back hollow (`holding:`): `withoutPushedVersions` drops
    /// them all before anything is applied.
    func fetchZonePage(_ zoneID: ZoneID, since token: ServerChangeToken?) throws(CloudError) -> ZoneChanges {
        let known: (any KnownRecordVersions)? = pushed.flatMap { $0.count(zone: zoneID.zoneName) > 0 ? $0 : nil }
        return try cloud.fetchZoneChanges(zoneID.zoneName, since: token, limit: pageSize, holding: known,
                                          in: request.owned(by: zoneID.ownerRecordName))
    }

    /// Starts fetching the page after `token` on another thread. It touches only the cloud (a
    /// `CloudService` serializes its own calls, so an asset download of the page being applied
    /// may run meanwhile) and the pushed versions, which nothing changes until it is joined:
    /// every path that forgets them (a zone dropped or reset) runs after the join, with what
    /// the joined page says. The page the cloud answers depends on the token alone, so it is
    /// the page the loop would have asked for after applying this one; a failure is thrown by
    /// the join, where the loop handles it as its own fetch's. A job dropped unjoined (the
    /// apply threw) is waited for.
    func prefetch(_ zoneID: ZoneID, since token: ServerChangeToken) -> BackgroundJob<ZoneChanges> {
        let fetcher = self
        return BackgroundJob { () throws(CloudError) -> ZoneChanges in try fetcher.fetchZonePage(zoneID, since: token) }
    }

    /// The page's changed records (and their encoded fields) less the versions this sync
    /// pushed, and how many those were.
    func withoutPushedVersions(_ page: ZoneChanges) -> (changed: [Record], encoded: [String?], own: Int) {
        guard let pushed, pushed.count > 0, page.changed.contains(where: pushed.isPushed) else {
            return (page.changed, page.encodedFields, 0)
        }
        let aligned = page.encodedFields.count == page.changed.count
        var changed: [Record] = [], encoded: [String?] = []
        changed.reserveCapacity(page.changed.count)
        for (index, record) in page.changed.enumerated() where !pushed.isPushed(record) {
            changed.append(record)
            if aligned { encoded.append(page.encodedFields[index]) }
        }
        return (changed, encoded, page.changed.count - changed.count)
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
