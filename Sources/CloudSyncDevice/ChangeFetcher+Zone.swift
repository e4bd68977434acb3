import CloudSyncCore
import CloudSyncService

extension ChangeFetcher {
    /// Fetches one zone page by page, each page applied with its token in one transaction. An
    /// expired token restarts the zone from the start (everything is dropped when it came from
    /// another store epoch); a zone the cloud calls missing is asked for once more before it
    /// is believed.
    func fetchZone(_ zone: ZoneFetch, summary: inout FetchSummary,
                   onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
        var state = try startingState(of: zone)
        summary.zonesFetched += 1
        while true {
            let page: ZoneChanges
            do {
                page = try nextPage(of: zone.zoneID, &state)
            } catch let error where error.code == .changeTokenExpired && state.token != nil {
                try restartAfterExpiry(zone.zoneID, error, &state, summary: &summary, onEvent: onEvent)
                continue
            } catch let error where (error.code == .zoneNotFound || error.code == .userDeletedZone) {
                if try askAgainOrDropMissing(zone, error, &state, summary: &summary, onEvent: onEvent) { continue }
                return
            }
            try checkEpochWitness(of: page, &state, summary: &summary, onEvent: onEvent)
            if state.rebuild {
                // The zone is fetched again from the start after its token was dropped: the
                // cache starts over in the transaction of the first page.
                state.rebuild = false
                try dropZoneCache(zone.zoneID)
            }
            try apply(page, of: zone.zoneID, prefetching: &state.prefetched, summary: &summary, onEvent: onEvent)
            state.token = page.token
            if !page.moreComing { return }
        }
    }

    /// Where a zone's fetch starts: from its token, or from the start (`reset`, or no token).
    /// Only a fetch from the start needs to know whether records are cached: counting them on
    /// every incremental fetch is a scan of the whole zone.
    func startingState(of zone: ZoneFetch) throws(CloudError) -> ZoneFetchState {
        var token = try store.zoneToken(zone.zoneID, scope)
        var known = token != nil
        if zone.reset || token == nil, case let cached = try store.cachedRecordCount(zone.zoneID, scope), cached > 0 {
            known = true
            // Fetching from the start rebuilds the zone: drop what is cached first. Not when
            // every cached record is a version this sync pushed (a device's first sync): the
            // fetch from the start names each of them again, changed, deleted or as pushed.
            if zone.reset || pushed?.count(zone: zone.zoneID.zoneName) != cached {
                try dropZoneCache(zone.zoneID)
            }
            token = nil
        }
        return ZoneFetchState(token: token, known: known, witness: zone.epochWitness)
    }

    /// The zone's next page: the one prefetched while the last was applied, or one fetched now.
    func nextPage(of zoneID: ZoneID, _ state: inout ZoneFetchState) throws(CloudError) -> ZoneChanges {
        if let next = state.prefetched {
            state.prefetched = nil
            return try next.join()
        }
        return try fetchZonePage(zoneID, since: state.token)
    }

    /// The zone's token expired: everything is dropped when the token came from another store
    /// epoch (asked once per zone fetch), else the zone's cache; the zone is then fetched from
    /// the start.
    func restartAfterExpiry(_ zoneID: ZoneID, _ error: CloudError, _ state: inout ZoneFetchState,
                            summary: inout FetchSummary, onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
        if !state.checkedEpoch, let old = state.token, try tokenFromAnotherEpoch(old, kind: .zone) {
            try dropEverything(summary: &summary, onEvent: onEvent)
        } else {
            try dropZoneCache(zoneID)
            try report(onEvent, .zoneReset(zoneID, reason: error.reason))
        }
        state.checkedEpoch = true
        state.token = nil
        state.rebuild = false
    }

    /// The cloud called the zone missing. The first time, returns true to ask once more from
    /// the start before believing it: a zone the database listed (or one this device holds)
    /// that one fetch calls missing may be a passing failure, and dropping it would hide its
    /// records until the next change. The second time, a zone this device knew is dropped as
    /// deleted (or purged), one asked for by name and never known is `error`, and one from the
    /// listing is skipped.
    func askAgainOrDropMissing(_ zone: ZoneFetch, _ error: CloudError, _ state: inout ZoneFetchState,
                               summary: inout FetchSummary,
                               onEvent: (FetchEvent) throws -> Void) throws(CloudError) -> Bool {
        if !state.missingOnce {
            state.missingOnce = true
            if state.token != nil { state.rebuild = true }
            state.token = nil
            return true
        }
        guard state.known else {
            if zone.named { throw error }
            summary.zonesFetched -= 1
            return false
        }
        let reason: ZoneDeletionReason = error.code == .userDeletedZone ? .purged : .deleted
        try dropDeletedZone(zone.zoneID, reason: reason, summary: &summary, onEvent: onEvent)
        return false
    }

    /// Checks the first page against the epoch witness (once): a page token from another store
    /// epoch than the stored database token drops everything.
    func checkEpochWitness(of page: ZoneChanges, _ state: inout ZoneFetchState, summary: inout FetchSummary,
                           onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
        guard let stored = state.witness else { return }
        state.witness = nil
        if ChangeFetcher.epoch(of: stored, .database) != nil,
           ChangeFetcher.epoch(of: stored, .database) != ChangeFetcher.epoch(of: page.token, .zone) {
            try dropEverything(summary: &summary, onEvent: onEvent)
        }
    }

    /// Applies one page (less the versions this sync pushed) with its token, after starting to
    /// fetch the next one when more is coming, and reports it.
    func apply(_ page: ZoneChanges, of zoneID: ZoneID, prefetching prefetched: inout BackgroundJob<ZoneChanges>?,
               summary: inout FetchSummary, onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
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
    }

    /// Drops a zone's cache (and the versions this sync pushed to it) before it is fetched
    /// again from the start.
    func dropZoneCache(_ zoneID: ZoneID) throws(CloudError) {
        try store.dropZone(zoneID, scope, reason: nil, sink: sink)
        pushed?.forget(zone: zoneID.zoneName)
    }

    /// Drops a zone that went away in the cloud, and says so.
    func dropDeletedZone(_ zoneID: ZoneID, reason: ZoneDeletionReason, summary: inout FetchSummary,
                         onEvent: (FetchEvent) throws -> Void) throws(CloudError) {
        let dropped = try store.dropZone(zoneID, scope, reason: reason, sink: sink)
        pushed?.forget(zone: zoneID.zoneName)
        try forgetCreated(zoneID)
        summary.zonesDeleted += 1
        try report(onEvent, .zoneDeleted(zoneID, reason, droppedRecords: dropped))
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
}
