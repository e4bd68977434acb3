import CloudSyncCore

/// Record versions a caller already holds: a sync's own pushed versions, which the change feed
/// of the same sync hands back (issue 16). Passed to `CloudService.fetchZoneChanges(…holding:…)`,
/// the one call that uses them: the embedded cloud leaves those records hollow.
public protocol KnownRecordVersions: AnyObject {
    /// Whether the caller holds record `name` of `zone` at change tag `tag`.
    func holds(zone: String, name: String, tag: String) -> Bool
}
