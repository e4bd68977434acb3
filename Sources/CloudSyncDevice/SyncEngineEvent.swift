import CloudSyncCore

/// What a `SyncEngine` reports, one value per happening, in order.
public enum SyncEngineEvent: Sendable {
    /// Local changes reached the cloud: records saved and deleted, records that could not be
    /// pushed (they stay pending), and how long the cycle took.
    case pushed(saved: Int, deleted: Int, failed: Int, milliseconds: Int64)
    /// Changes made elsewhere were applied here.
    case pulled(changed: Int, deleted: Int, milliseconds: Int64)
    /// A record changed on both sides, resolved by the merge policy (also in the conflict log).
    case conflict(SyncConflict)
    /// The cloud could not be reached: why, and the seconds until the next try.
    case offline(reason: String, retryIn: Double)
    /// The cloud answered again after `offlineSeconds` away; a full cycle (pull included) ran.
    case online(offlineSeconds: Double)
    /// The account's sync switch (`icloud_sync`) changed as this device saw it: off stops every
    /// data call, on resumes them (and pushes what was recorded meanwhile).
    case toggle(on: Bool)
    /// A zone the cloud had lost was re-created and its records uploaded again.
    case zoneRecreated(String)
    /// A zone deleted on purpose on another device (not purged) was dropped here too: this
    /// device held no unpushed edit of it.
    case zoneDropped(String)
    /// A failure that is not the network's (a damaged answer, a local storage error): retried
    /// after `retryIn` seconds, a bounded number of times in a row.
    case failed(CloudError, retryIn: Double)
    /// One cycle ended: its duration and the changes still pending.
    case cycle(milliseconds: Int64, pending: Int, syncOn: Bool)
}
