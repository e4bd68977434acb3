import CloudSyncCore

/// A conflict met during a sync and how it was resolved.
public struct SyncConflict: Sendable, Hashable {
    public var zoneName: String
    public var recordName: String
    public var policy: MergePolicy
    public var resolution: String
    /// Fields both sides changed.
    public var contestedKeys: [String]
}

/// What one `Synchronizer.sync` did.
public struct SyncReport: Sendable {
    public var savedRecords = 0
    public var deletedRecords = 0
    public var pulledChanges = 0
    public var pulledDeletions = 0
    /// Records the pull got back that were the versions this sync had pushed: already the
    /// local base, so neither applied nor counted in `pulledChanges`.
    public var ownPushedRecords = 0
    public var conflicts: [SyncConflict] = []
    /// Zones the cloud had lost that were re-created (and their records re-uploaded).
    public var recreatedZones: [String] = []
    /// Zones deleted on purpose elsewhere (not purged) that this device held nothing unpushed
    /// of: dropped from the local store too, not re-created.
    public var droppedZones: [String] = []
    /// Records whose changes could not be pushed, with why; they stay pending.
    public var failures: [RecordID: CloudError] = [:]
    /// Records still pending after the sync.
    public var pendingAfter = 0
    /// The device's tokens came from another store epoch (the cloud file was replaced or
    /// recreated): the pull dropped them and fetched everything from scratch.
    public var epochChanged = false

    public init() {}
}

/// Progress of a sync, for a progress bar.
public enum SyncProgress: Sendable {
    case pushing(done: Int, total: Int)
    case pulling(records: Int)
}
