/// CloudKit's request and size limits: the one definition that every backend (the embedded
/// SQLite cloud now, PostgreSQL and the HTTP server later) and the device's local writes use.
public enum CloudLimits {
    /// Records saved plus deleted in one modify call.
    public static let maxRecordsPerModify = 400
    /// Encoded size of one record (``CloudSyncCore/Record/estimatedSize``), as the cloud stores it:
    /// assets count as references, encrypted fields as their ciphertext.
    public static let maxRecordSize = 1_048_576
    /// Largest page of changes or query results.
    public static let maxPageSize = 10_000
    /// Size of one asset.
    public static let maxAssetSize = 50 * 1_048_576
    /// Default page size when the caller gives none.
    public static let defaultPageSize = 400
}
