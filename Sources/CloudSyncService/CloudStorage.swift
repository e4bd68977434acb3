import CloudSyncCore

/// What a cloud backend stores: the tables behind `StorageBackedCloud`, with no rules of the service.
///
/// A storage only stores, sequences and notifies. Every check a server makes (names, change
/// tags, permissions, limits, schema, subscriptions, cascades, atomic zones, tokens) is in
/// `StorageBackedCloud`, written once over this protocol; SQLite (`SQLiteCloudStorage`) and PostgreSQL
/// implement it.
///
/// Transactions run one at a time per storage object (a storage serializes its callers). A
/// `write` transaction takes the store's write lock at its start (SQLite `BEGIN IMMEDIATE`;
/// PostgreSQL row locks on the counters it takes), so writers of one database commit in counter
/// order and a reader never sees sequence N+1 before N. Failures of the store itself come out as
/// `CloudError` (busy: `serviceUnavailable` with `retryAfter`; damaged: `badDatabase`; full:
/// `quotaExceeded`; else `internalError`); a `CloudError` thrown by the body passes unchanged.
public protocol CloudStorage: AnyObject, Sendable {
    /// The random identity of this store, carried in every token (a copy keeps it).
    var epoch: UInt64 { get }
    /// Runs `body` in a read transaction: one consistent snapshot.
    func read<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T
    /// `read` for a body that runs one statement (a look-up by key): a storage may run it
    /// without a transaction around it, one statement being consistent on its own. By default
    /// the same as `read`.
    func readOne<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T
    /// Runs `body` in a write transaction, committed when it returns and rolled back when it throws.
    func write<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T
    /// Runs `body` in a write transaction that writes the database `key` (and no other): a
    /// storage may queue writers of one database in the process before they take a connection.
    /// By default the same as `write(_:)`.
    func write<T>(database key: DatabaseWriteKey, _ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T
    /// What a listener of `device` sleeps on (see `NotificationWaiter`).
    func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter
    /// What this storage offers beyond these calls (a check, a copy, figures), asked rather than
    /// found by casting; no default, so a new storage says what it offers.
    var storageCapabilities: StorageCapabilities { get }
}

extension CloudStorage {
    /// A read transaction like any other.
    public func readOne<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try read(body)
    }

    /// A storage that keys nothing by database: the one write lock it has serializes already.
    public func write<T>(database key: DatabaseWriteKey, _ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try write(body)
    }
}

/// The storage primitives available inside a transaction. Every method touches one database
/// (`dbID`) or one account's rows at most, and never decides anything a rule would.
public protocol CloudStorageTransaction {
    /// Runs `body` in a nested transaction (a savepoint) that is undone when `body` throws; the
    /// error is rethrown. An atomic zone's changes run in one.
    func nested<T>(_ body: () throws -> T) throws -> T

    // MARK: Accounts

    /// The `userRecordName` of the account with login `name`, or nil.
    func userRecordName(ofAccount name: String) throws -> String?
    /// Stores an account unless the login exists already (a concurrent creation wins).
    func insertAccountIfAbsent(name: String, userRecordName: String, now: Int64) throws
    /// The profile (display name, discoverability) of the account with login `account`, or nil
    /// when it never set one.
    func userProfile(account: String) throws -> UserProfileRow?
    /// Stores an account's profile (replacing the one it had).
    func putUserProfile(_ row: UserProfileRow) throws

    // MARK: Databases

    /// The database of (container, scope, owner), or nil if it was never used. `owner` is `""`
    /// for the public database.
    func findDatabase(container: String, scope: DatabaseScope, owner: String) throws -> DatabaseRow?
    /// Creates the database with sequence 0 and its `_defaultZone` (zone seq 0, db_seq 0).
    func createDatabase(container: String, scope: DatabaseScope, owner: String, now: Int64) throws -> DatabaseRow
    /// Increments the database's counter under a row lock and returns the new value.
    func nextDatabaseSeq(_ dbID: Int64) throws -> Int64

    // MARK: Zones

    /// The live zone `name`, or nil. In a write transaction the row stays locked until commit
    /// (the service takes the zone's next sequence numbers from `seq`): SQLite's `BEGIN
    /// IMMEDIATE` locks the file; a row-locking store reads with `FOR UPDATE`.
    func findZone(_ name: String, dbID: Int64) throws -> ZoneRow?
    /// How the latest dead incarnation of zone `name` died, or nil when there is none.
    func deletedZoneReason(_ name: String, dbID: Int64) throws -> ZoneDeletionReason?
    /// Every live zone, `_defaultZone` first, then by name.
    func liveZones(dbID: Int64) throws -> [ZoneRow]
    /// Creates a zone incarnation (seq 0, no records) changed at database sequence `dbSeq`.
    func createZone(_ name: String, atomic: Bool, dbID: Int64, dbSeq: Int64, now: Int64) throws -> ZoneRow
    /// Drops a zone's records and reference edges and marks it deleted (or purged) at `dbSeq`.
    func deleteZone(_ zone: ZoneRow, dbID: Int64, purge: Bool, dbSeq: Int64) throws
    /// Stores a zone's new counter after a modify call: `seq`, changed at `dbSeq`, with
    /// `countDelta` more live records.
    func advanceZone(_ zone: ZoneRow, dbID: Int64, seq: Int64, dbSeq: Int64, countDelta: Int) throws
    /// `nextDatabaseSeq` then `advanceZone` at that sequence; a storage whose statements are
    /// round trips may take both counters in one, and send it without waiting for its answer
    /// (a failure then fails the transaction's commit).
    func advanceZoneAndDatabase(_ zone: ZoneRow, dbID: Int64, seq: Int64, countDelta: Int) throws
    /// Zones (live or dead, `_defaultZone` excepted) changed after database sequence `since`,
    /// in sequence order, at most `limit`.
    func zoneChanges(dbID: Int64, since: Int64, limit: Int) throws -> [ZoneChangeRow]

    // MARK: Records

    /// Announces the records of a zone that this write transaction is about to load and write
    /// (one modify call's), so that a storage whose every statement is a network round trip
    /// may read them in one go and send their writes as one batch. A hint: a storage that
    /// ignores it (the default, SQLite's) stays correct.
    func prepareRecords(_ names: [String], zone: ZoneRow, dbID: Int64, zoneID: ZoneID) throws
    /// Announces, before anything else, what a modify call on one zone is about to read in this
    /// write transaction: the database's row (to lock), the zone's row (to lock) and the named
    /// records (as `prepareRecords` will name them), so that a storage whose every statement is
    /// a network round trip may read all three in one. The `findDatabase`, `findZone` and
    /// `prepareRecords` that follow then answer from what it read. A hint: a storage that
    /// ignores it (the default, SQLite's) stays correct.
    func expectModify(_ database: DatabaseWriteKey, zone: String, records: [String]) throws
    /// Confirms in this write transaction that the credential `id` is in force (stored, not
    /// revoked), throwing `notAuthenticated` otherwise (`CredentialConfirmation`). A storage may
    /// send the check with its next statement (before any write) and answer it there;
    /// `settleCredentialCheck` then answers one still unsent. The default checks at once.
    func expectCredentialInForce(id: String) throws
    /// Answers a credential check `expectCredentialInForce` left unsent (the default: none).
    func settleCredentialCheck() throws
    /// A record row (live or tombstone) of a zone.
    func loadRecord(_ name: String, zone: ZoneRow, dbID: Int64, zoneID: ZoneID) throws -> StoredRecord?
    /// Writes a record row. `ifAbsent`: only when no row of that name (live or tombstone)
    /// exists, returning false when it did nothing; otherwise the row is replaced.
    func writeRecord(_ row: RecordWrite, zone: ZoneRow, dbID: Int64, ifAbsent: Bool) throws -> Bool
    /// Turns a live record into a tombstone at `seq` (no fields, no change tag, no edges).
    func tombstoneRecord(_ name: String, zone: ZoneRow, dbID: Int64, seq: Int64, stamp: ChangeStamp) throws
    /// Removes the DELETE_SELF edges from `source`.
    func removeReferences(from source: String, zone: ZoneRow, dbID: Int64) throws
    /// Adds a DELETE_SELF edge `source` -> `target` (idempotent).
    func addReference(from source: String, to target: String, zone: ZoneRow, dbID: Int64) throws
    /// The records holding a DELETE_SELF edge to `target`.
    func referenceSources(to target: String, zone: ZoneRow, dbID: Int64) throws -> [String]
    /// Record rows changed after zone sequence `since`, in sequence order, at most `limit`,
    /// each with its stored fields text; `moreComing` when a further row exists. A live row
    /// `known` holds at its change tag may come back hollow (see `CloudService.fetchZoneChanges`).
    func recordChanges(zone: ZoneRow, dbID: Int64, zoneID: ZoneID, since: Int64, limit: Int,
                       holding known: (any KnownRecordVersions)?) throws -> (records: [StoredRecord], moreComing: Bool)
    /// Visits the live records of `recordType` in a zone (a query's scan) until `visit` returns
    /// false: in `order`, starting strictly after its cursor, or in no particular order when nil.
    func scanRecords(ofType recordType: String, zone: ZoneRow, dbID: Int64, zoneID: ZoneID,
                     order: QueryScanOrder?, _ visit: (Record) throws -> Bool) throws
    /// The records `names` as they were before this write transaction, for query
    /// subscriptions; nil when the store cannot tell (callers then judge by system fields).
    func recordImagesBeforeTransaction(_ names: Set<String>, zone: ZoneRow, dbID: Int64,
                                       zoneID: ZoneID) -> [String: NotificationRecordImage]?

    // MARK: Schema (per container key: `DatabaseRequest.storageContainer`, environment included)

    /// The committed field types of a record type (unreadable types left out).
    func schemaFields(container: String, recordType: String) throws -> [String: FieldTypeName]
    /// Adds a field unless present; false when another writer had added it.
    func addSchemaFieldIfAbsent(container: String, recordType: String, field: String, type: FieldTypeName) throws -> Bool
    /// The stored type text of one field, or nil.
    func schemaFieldType(container: String, recordType: String, field: String) throws -> String?
    /// Every field the container's schema grew on save: record type → field → type.
    func allSchemaFields(container: String) throws -> [String: [String: FieldTypeName]]
    /// Removes every grown field of the container (a schema import or reset rewrites them).
    func removeSchemaFields(container: String) throws
    /// The container's declared schema as .ckdb text (what `schema import`/`deploy` stored), or
    /// nil when none was declared. Stored and returned as given; the service parses it.
    func declaredSchema(container: String) throws -> String?
    /// Replaces the container's declared schema text; nil removes it.
    func setDeclaredSchema(_ text: String?, container: String) throws
    /// Every database of the container (any scope and owner), for a reset.
    func databases(container: String) throws -> [DatabaseRow]

    // MARK: Assets

    /// Stores an asset unless this database has it.
    func insertAssetIfAbsent(_ reference: AssetReference, data: [UInt8], dbID: Int64, now: Int64) throws
    /// The contents of an asset, or nil.
    func assetData(checksum: String, dbID: Int64) throws -> [UInt8]?
    /// The size of an asset, or nil when this database does not have it.
    func assetSize(checksum: String, dbID: Int64) throws -> Int64?

    // MARK: Key-value stores (per container and account)

    /// The store of (container, owner), created on first use.
    func ensureKeyValueStore(container: String, owner: String) throws -> KeyValueStoreRow
    /// The store's current sequence, or nil when it is gone. (`ensureKeyValueStore` in a write
    /// transaction locks the row, like `findZone`.)
    func keyValueSeq(storeID: Int64) throws -> Int64?
    /// Writes (or, `value` nil, deletes) a key at `seq`.
    func putKeyValue(_ key: String, _ value: KeyValue?, storeID: Int64, seq: Int64, now: Int64, deviceID: String) throws
    /// Live keys and their bytes as Apple counts them (key + value, data values decoded).
    func keyValueUsage(storeID: Int64) throws -> (keys: Int64, bytes: Int64)
    /// Stores the store's new sequence.
    func setKeyValueSeq(_ seq: Int64, storeID: Int64) throws
    /// Keys changed after `since`, latest state each, in sequence order.
    func keyValueChanges(storeID: Int64, since: Int64) throws -> [KeyValueItem]

    // MARK: Subscriptions (per database and owner)

    /// The creation time of a stored subscription, or nil when there is none.
    func subscriptionCreated(_ id: String, owner: String, dbID: Int64) throws -> Int64?
    /// Stores (or replaces) a subscription.
    func putSubscription(_ row: SubscriptionRow, dbID: Int64) throws
    /// An owner's subscriptions by ID.
    func subscriptions(owner: String, dbID: Int64) throws -> [SubscriptionRow]
    /// Subscriptions a change in `zoneName` concerns: database ones, the zone's, and query
    /// ones of the zone or of every zone; by owner, then ID.
    func subscriptionsConcerning(zoneName: String, dbID: Int64) throws -> [SubscriptionRow]
    /// True when some subscription concerns a change in `zoneName` (as `subscriptionsConcerning`
    /// would return one), without reading any definition.
    func hasSubscriptionsConcerning(zoneName: String, dbID: Int64) throws -> Bool
    /// Deletes a subscription.
    func deleteSubscription(_ id: String, owner: String, dbID: Int64) throws

    // MARK: Devices and notification queues (per container and account)

    /// Registers a device (or notes that it was seen again).
    func registerDevice(_ device: DeviceAddress, now: Int64) throws
    /// Removes a device's registration and its unread notifications.
    func unregisterDevice(_ device: DeviceAddress) throws
    /// Unregisters all but the `keeping` devices of an account seen most recently (their unread
    /// notifications go with them).
    func trimDevices(container: String, owner: String, keeping: Int) throws
    /// The registered devices of an account, by ID.
    func registeredDevices(container: String, owner: String) throws -> [String]
    /// Adds a notification to a device's queue; with a `coalesceKey`, nothing is added while an
    /// unread one with the same key waits. True when a row was added.
    func enqueueNotification(to device: DeviceAddress, payload: String, coalesceKey: String?, now: Int64) throws -> Bool
    /// Reads and removes the oldest `limit` notifications of a device: (queue ID, payload).
    func takeNotifications(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)]
    /// Reads the oldest `limit` notifications of a device without removing them.
    func peekNotifications(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)]
    /// Removes one notification of a device's queue; false when it was not there (read already).
    func deleteNotification(_ id: Int64, of device: DeviceAddress) throws -> Bool
    /// Wakes the listeners of devices that got a notification in this transaction (no later
    /// than its commit; a woken listener's `write` waits for this writer to commit).
    func wakeListeners(_ devices: Set<DeviceAddress>)

    // MARK: Sharing (shares and participants in the owner's database, keyed by its `dbID`; the
    // zones of a participant's shared database keyed by that database's `dbID`)

    /// The login name of the account with this userRecordName, or nil.
    func accountName(ofUserRecordName userRecordName: String) throws -> String?
    /// The share of zone `zoneName`, or nil.
    func share(zoneName: String, dbID: Int64) throws -> ShareRow?
    /// Every share of the database, by zone name.
    func shares(dbID: Int64) throws -> [ShareRow]
    /// Stores (or replaces) a zone's share.
    func putShare(_ row: ShareRow, dbID: Int64) throws
    /// Deletes a zone's share and its participants.
    func deleteShare(zoneName: String, dbID: Int64) throws
    /// The participants of a zone's share, by userRecordName.
    func shareParticipants(zoneName: String, dbID: Int64) throws -> [ShareParticipantRow]
    /// Stores (or replaces) a participant of a zone's share.
    func putShareParticipant(_ row: ShareParticipantRow, zoneName: String, dbID: Int64) throws
    /// Removes a participant of a zone's share.
    func deleteShareParticipant(_ userRecordName: String, zoneName: String, dbID: Int64) throws
    /// Every zone row of a shared database (live or not), by owner, then zone name.
    func sharedZones(dbID: Int64) throws -> [SharedZoneRow]
    /// Stores a zone row of a shared database (replacing the one of the same owner and name).
    func putSharedZone(_ row: SharedZoneRow, dbID: Int64) throws
    /// Zone rows of a shared database changed after sequence `since`, in sequence order, at most `limit`.
    func sharedZoneChanges(dbID: Int64, since: Int64, limit: Int) throws -> [SharedZoneRow]

    // MARK: Credentials (`cloudsync serve`'s tokens and server-to-server keys, per account)

    /// Stores a new credential (its ID is new).
    func insertCredential(_ row: CredentialRow) throws
    /// The credential with this ID (revoked or not), or nil.
    func credential(id: String) throws -> CredentialRow?
    /// The credential of `kind` whose secret (a token's hash) is `secret` (revoked or not), or nil.
    func credential(secret: String, kind: CredentialKind) throws -> CredentialRow?
    /// Every credential (revoked ones too), by creation time then ID.
    func allCredentials() throws -> [CredentialRow]
    /// Marks a credential in force as revoked at `time`; false when there is none in force with this ID.
    func revokeCredential(id: String, at time: Int64) throws -> Bool
    /// Records when a credential last authenticated a request; nothing for one revoked (a
    /// request admitted from a cache before it was revoked elsewhere is refused, not a use).
    func setCredentialLastUsed(id: String, at time: Int64) throws

    // MARK: Administrators and used signatures

    /// The accounts that administer a container (its base identifier, both environments), by name.
    func containerAdministrators(container: String) throws -> [String]
    /// Makes `account` an administrator of `container`; false when it was one already.
    func addContainerAdministrator(_ account: String, container: String, now: Int64) throws -> Bool
    /// Ends `account`'s administration of `container`; false when it was none.
    func removeContainerAdministrator(_ account: String, container: String) throws -> Bool
    /// The bytes an account's data takes (`StorageBackedCloud+Quota`), 0 when none was counted.
    func usage(payer: String) throws -> Int64
    /// Adds `delta` (negative to free) to an account's bytes; returns the new total when
    /// `needTotal` (a quota to check), else nil (a backend may then send it with the commit).
    func addUsage(_ delta: Int64, payer: String, needTotal: Bool) throws -> Int64?
    /// Adds `delta` (> 0) to an account's bytes, refusing a total over `limit` with
    /// `CloudError.overQuota` (which undoes the call). A storage whose statements are round
    /// trips may check it in the statement itself, sent without waiting: the refusal then comes
    /// with the transaction's next statement or its commit. By default `addUsage(needTotal:)`
    /// and a comparison.
    func addUsage(_ delta: Int64, payer: String, limit: Int64) throws
    /// Remembers a signed request's signature (its hash) until `expires` (ms since 1970); false
    /// when it was remembered already (a replay). Forgets the expired ones on the way.
    func rememberSignature(_ hash: String, expires: Int64, now: Int64) throws -> Bool
    /// The secret kept under `key` in the store's `meta` table; stores `candidate` first when
    /// there is none (the first node to ask wins; every node then reads the same value).
    func keptSecret(_ key: String, candidate: String) throws -> String
}

extension CloudStorageTransaction {
    /// Does nothing: loads and writes go to the store one by one.
    public func prepareRecords(_ names: [String], zone: ZoneRow, dbID: Int64, zoneID: ZoneID) throws {}

    /// Does nothing: the rows are read when asked for.
    public func expectModify(_ database: DatabaseWriteKey, zone: String, records: [String]) throws {}

    /// Reads the credential's row now.
    public func expectCredentialInForce(id: String) throws {
        try CredentialConfirmation.requireInForce(credential(id: id), id: id)
    }

    /// Nothing is left: `expectCredentialInForce` checked at once.
    public func settleCredentialCheck() throws {}

    /// The new total, compared with `limit`.
    public func addUsage(_ delta: Int64, payer: String, limit: Int64) throws {
        let total = try addUsage(delta, payer: payer, needTotal: true) ?? delta
        if total > limit { throw CloudError.overQuota(total: total, limit: limit) }
    }

    /// Two statements: `nextDatabaseSeq`, then `advanceZone`.
    public func advanceZoneAndDatabase(_ zone: ZoneRow, dbID: Int64, seq: Int64, countDelta: Int) throws {
        let dbSeq = try nextDatabaseSeq(dbID)
        try advanceZone(zone, dbID: dbID, seq: seq, dbSeq: dbSeq, countDelta: countDelta)
    }
}
