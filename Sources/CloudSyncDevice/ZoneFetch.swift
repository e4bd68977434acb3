import CloudSyncCore
import CloudSyncService

/// How one zone is fetched (`ChangeFetcher.fetchZone`).
struct ZoneFetch {
    var zoneID: ZoneID
    /// Tokens are ignored and the zone's cache is rebuilt.
    var reset = false
    /// The zone was asked for by name (`--zone`), so a zone the cloud does not have and this
    /// device never knew is `zoneNotFound`; a zone from the database listing that vanished
    /// meanwhile is skipped.
    var named = false
    /// A stored database token whose epoch the first page's must match.
    var epochWitness: ServerChangeToken?
}

/// Where one zone's fetch stands between two pages.
struct ZoneFetchState {
    /// The token the next page is asked from (nil: from the start).
    var token: ServerChangeToken?
    /// This device knew the zone (held its token or cached records of it).
    var known: Bool
    /// The epoch witness not checked yet (see `ZoneFetch.epochWitness`).
    var witness: ServerChangeToken?
    /// Set when the zone is fetched again from the start after a failure: its cache is
    /// dropped when the first page arrives.
    var rebuild = false
    /// An expired token was already compared with the cloud's store epoch.
    var checkedEpoch = false
    /// The cloud already called the zone missing once.
    var missingOnce = false
    /// The next page, fetched from the cloud on another thread while this one is applied to
    /// the device file (see `ChangeFetcher.prefetch`).
    var prefetched: BackgroundJob<ZoneChanges>?
}
