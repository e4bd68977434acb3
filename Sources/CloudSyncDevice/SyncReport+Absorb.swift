import CloudSyncCore

extension SyncReport {
    /// Adds what `other` did (another sync of the same run, such as one owner's shared zones) to
    /// this report. The one place reports merge: a field added to `SyncReport` is merged here.
    public mutating func absorb(_ other: SyncReport) {
        savedRecords += other.savedRecords
        deletedRecords += other.deletedRecords
        pulledChanges += other.pulledChanges
        pulledDeletions += other.pulledDeletions
        ownPushedRecords += other.ownPushedRecords
        conflicts += other.conflicts
        recreatedZones += other.recreatedZones
        droppedZones += other.droppedZones
        failures.merge(other.failures) { first, _ in first }
        pendingAfter += other.pendingAfter
        epochChanged = epochChanged || other.epochChanged
    }
}
