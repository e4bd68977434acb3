import CloudSyncCore
import CloudSyncService

/// The versions one sync pushed: record name → the change tag the cloud gave the saved record,
/// per zone. The cloud's change feed hands every pushed record back to the pull of the same
/// sync; a record that comes back with the tag noted here is the version the push already
/// cached as the local store's base, over local fields that are that version (or newer, and
/// pending), so applying it again would change nothing and is skipped.
///
/// The fetcher hands these to the cloud (`fetchZoneChanges(…holding:…)`), so the embedded cloud
/// does not even decode their fields.
///
/// Only sound while the base the push wrote is still there: whoever drops a zone's base
/// (`ChangeFetcher` on a deleted, expired or replaced zone, `Synchronizer.recreateZone`) calls
/// `forget`, and the record is then applied as usual.
///
/// Written only between fetches (`note` by the push, `forget` when a base is dropped): a page
/// prefetched on another thread (`ChangeFetcher.prefetch`) reads it while the fetcher reads it
/// too, and both are joined before anything writes it.
final class PushedVersions: KnownRecordVersions {
    private var tags: [String: [String: String]] = [:]

    /// Records noted.
    private(set) var count = 0
    /// How many records the first zone's table is made for when its first record is noted.
    private var expected = 0

    /// Sizes the table of the first zone noted for `count` records (the records a push is
    /// about to save, usually all in one zone), so that it is not grown and rehashed on the way.
    func expect(_ count: Int) { expected = max(0, count) }

    /// Notes the cloud's version of a record the push saved and cached.
    func note(_ record: Record) {
        guard let tag = record.system?.changeTag, !tag.isEmpty else { return }
        let name = record.recordID.recordName
        let capacity = tags.isEmpty ? expected : 0
        if tags[record.recordID.zoneID.zoneName, default: Dictionary(minimumCapacity: capacity)]
            .updateValue(tag, forKey: name) == nil { count += 1 }
    }

    /// Whether `record` is a version this sync pushed (same zone, name and change tag).
    func isPushed(_ record: Record) -> Bool {
        holds(zone: record.recordID.zoneID.zoneName, name: record.recordID.recordName, tag: record.system?.changeTag ?? "")
    }

    /// The same test on the parts (the cloud asks it before decoding a row).
    func holds(zone: String, name: String, tag: String) -> Bool {
        guard !tag.isEmpty, let known = tags[zone]?[name] else { return false }
        return known == tag
    }

    /// Versions noted in `zone`.
    func count(zone: String) -> Int { tags[zone]?.count ?? 0 }

    /// Forgets the versions of a zone whose base was dropped.
    func forget(zone: String) {
        if let removed = tags.removeValue(forKey: zone) { count -= removed.count }
    }

    /// Forgets every version (every base was dropped).
    func forgetAll() {
        tags = [:]
        count = 0
    }
}
