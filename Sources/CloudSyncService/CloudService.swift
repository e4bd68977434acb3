import CloudSyncCore

/// The CloudKit-like service: zones, records, queries and change tracking of the databases of
/// one container. Implemented once by `StorageBackedCloud` over a `CloudStorage` (the embedded SQLite
/// file or PostgreSQL), and by `HTTPCloud` as the client of a server; the conformance suite in
/// the tests runs the same cases against every backend.
///
/// Every call names the database it works on and the caller (`DatabaseRequest`): the service
/// enforces access rules, limits, change tags and schema itself, as a real server would.
public protocol CloudService: AnyObject, Sendable {
    /// What this cloud can do beyond the data calls (schema, sharing, users, administration).
    /// A wrapper answers the capabilities of the cloud it wraps, with itself as `data`.
    var capabilities: CloudCapabilities { get }

    /// Resolves the account with login `name`, creating it on first use.
    func account(named name: String) throws(CloudError) -> Account

    /// Creates zones (existing ones are returned unchanged, as CloudKit does).
    func saveZones(_ zones: [ZoneSpec], in database: DatabaseRequest) throws(CloudError) -> [ZoneInfo]
    /// All live zones of the database, `_defaultZone` first.
    func fetchAllZones(in database: DatabaseRequest) throws(CloudError) -> [ZoneInfo]
    /// Deletes zones and their records. `purge` plays the user who deletes the app's data in
    /// iCloud settings: devices then meet `userDeletedZone` instead of `zoneNotFound`.
    func deleteZones(_ names: [String], purge: Bool, in database: DatabaseRequest) throws(CloudError)

    /// Saves and deletes records (at most 400 in all). Per-item failures are in the result; in
    /// an atomic zone one failure fails every item of that zone.
    func modifyRecords(_ request: ModifyRequest, in database: DatabaseRequest) throws(CloudError) -> ModifyResult
    /// Fetches records by ID; a missing one is an `unknownItem` entry.
    func fetchRecords(_ ids: [RecordID], in database: DatabaseRequest) throws(CloudError) -> [RecordID: Result<Record, CloudError>]
    /// Runs a query over one zone, one page at a time.
    func queryRecords(_ query: RecordQuery, in database: DatabaseRequest) throws(CloudError) -> QueryPage

    /// Zones changed or deleted since `token` (nil: since the beginning), at most `limit`.
    func fetchDatabaseChanges(since token: ServerChangeToken?, limit: Int,
                              in database: DatabaseRequest) throws(CloudError) -> DatabaseChanges
    /// Records changed or deleted in a zone since `token`, at most `limit` per page. `known`:
    /// the versions the caller already holds (a sync's own pushed versions, issue 16): a changed
    /// record it holds at that change tag may come back hollow (system fields and tag, no fields,
    /// no `encodedFields` text), so the caller must drop every such record unread. The embedded
    /// cloud then skips decoding their fields; other backends send them whole.
    func fetchZoneChanges(_ zoneName: String, since token: ServerChangeToken?, limit: Int,
                          holding known: (any KnownRecordVersions)?, in database: DatabaseRequest) throws(CloudError) -> ZoneChanges

    // MARK: Assets

    /// Stores file contents by SHA-256 checksum (idempotent) and returns their references, to
    /// be put in ASSETID fields. Each asset is at most `CloudLimits.maxAssetSize`.
    func uploadAssets(_ contents: [[UInt8]], in database: DatabaseRequest) throws(CloudError) -> [AssetReference]
    /// The contents of an asset of this database (`assetFileNotFound` when missing). `record`
    /// is the record the reference was read from: the shared database needs it (a participant
    /// reads only the assets of records in zones shared with them); elsewhere it may be nil.
    func fetchAsset(_ reference: AssetReference, of record: RecordID?, in database: DatabaseRequest) throws(CloudError) -> [UInt8]

    // MARK: Key-value store

    /// Applies writes to the caller's key-value store (one per account and container), all or
    /// nothing: a write over Apple's limits is `quotaExceeded` ("QuotaViolation") and changes
    /// nothing. Returns the items as stored, with the cloud's timestamps.
    func modifyKeyValues(_ writes: [KeyValueWrite], in database: DatabaseRequest) throws(CloudError) -> [KeyValueItem]
    /// Keys changed since `token` (nil: every key), latest state per key.
    func fetchKeyValueChanges(since token: ServerChangeToken?, in database: DatabaseRequest) throws(CloudError) -> KeyValueChanges

    // MARK: Subscriptions and notifications

    /// Saves subscriptions of the caller in this database (CKModifySubscriptionsOperation): an
    /// existing ID is replaced, keeping its creation date. All or nothing; rules in
    /// `Subscription.validate(for:)`, and a zone subscription's zone must exist. Registers the
    /// caller's device for notifications. Returns them as stored.
    func saveSubscriptions(_ subscriptions: [Subscription], in database: DatabaseRequest) throws(CloudError) -> [Subscription]
    /// The caller's subscriptions in this database, by ID.
    func fetchAllSubscriptions(in database: DatabaseRequest) throws(CloudError) -> [Subscription]
    /// Deletes subscriptions of the caller in this database. An unknown ID is `unknownItem` and
    /// deletes nothing.
    func deleteSubscriptions(_ ids: [String], in database: DatabaseRequest) throws(CloudError)
    /// Registers a device to receive the notifications of its account's subscriptions (idempotent).
    func registerDevice(_ device: DeviceAddress) throws(CloudError)
    /// Stops delivering to a device and drops its unread notifications.
    func unregisterDevice(_ device: DeviceAddress) throws(CloudError)
    /// Reads and acknowledges (removes) the oldest unread notifications of a device, at most
    /// `limit` (1 to `NotificationLimits.maxPerRead`), in the order they were enqueued.
    func takeNotifications(for device: DeviceAddress, limit: Int) throws(CloudError) -> [CloudNotification]
    /// What a listener of `device` sleeps on between reads (see `NotificationWaiter`).
    func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter
}

extension CloudService {
    /// Records changed or deleted in a zone since `token`, every one whole.
    public func fetchZoneChanges(_ zoneName: String, since token: ServerChangeToken?, limit: Int,
                                 in database: DatabaseRequest) throws(CloudError) -> ZoneChanges {
        try fetchZoneChanges(zoneName, since: token, limit: limit, holding: nil, in: database)
    }

    /// The contents of an asset of a private or public database (no record needed there).
    public func fetchAsset(_ reference: AssetReference, in database: DatabaseRequest) throws(CloudError) -> [UInt8] {
        try fetchAsset(reference, of: nil, in: database)
    }
}
