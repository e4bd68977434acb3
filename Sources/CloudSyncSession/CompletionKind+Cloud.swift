import CloudSyncCLI

extension CompletionKind {
    /// The name of a record zone.
    public static let zoneName = CompletionKind.live(LiveCompletion("zoneName", provider: CloudLiveValues.zoneNames))
    /// A record type from the schema.
    public static let recordType = CompletionKind.live(LiveCompletion("recordType", provider: CloudLiveValues.recordTypes))
    /// The name of a record.
    public static let recordName = CompletionKind.live(LiveCompletion("recordName", provider: CloudLiveValues.recordNames))
    /// A key of the ubiquitous key-value store.
    public static let kvKey = CompletionKind.live(LiveCompletion("kvKey", provider: CloudLiveValues.keyValueKeys))
}
