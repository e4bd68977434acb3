import CloudSyncCore

/// A record as it was before the current modify call touched it.
public struct NotificationRecordImage: Sendable {
    /// It had a live (not deleted) version.
    public var live: Bool
    /// That live version (type, fields and dates, for the predicate of a deletion).
    public var record: Record?

    public init(live: Bool, record: Record?) {
        self.live = live
        self.record = record
    }
}
