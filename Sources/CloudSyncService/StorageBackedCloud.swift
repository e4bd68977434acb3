import CloudSyncCore
import Synchronization

/// The CloudKit-like service over any `CloudStorage`: every rule a server enforces, written once.
///
/// Name rules, change-tag policy, permissions, size limits, schema growth and refusal,
/// subscription validation, DELETE_SELF cascades, atomic-zone rollback, the `zoneNotFound` /
/// `userDeletedZone` distinction, token encoding and validation (store epoch,
/// `changeTokenExpired`) and the notifications each change fans out are decided here; the
/// storage only stores, sequences and notifies. `SQLiteCloud` is this service over the embedded
/// SQLite file; other backends pass their own storage.
open class StorageBackedCloud: CloudService, @unchecked Sendable {
    /// Where the data lives.
    public let storage: any CloudStorage
    /// The random identity of the store, carried in every token.
    public let epoch: UInt64
    let clock: CloudClock
    /// Field types per container and record type, as this process last saw them committed.
    let schemaCache = Mutex<[SchemaKey: [String: FieldTypeName]]>([:])
    /// Declared schemas per container key, parsed once per text.
    let declaredCache = Mutex<[String: DeclaredSchemaEntry]>([:])
    /// Subscriptions decoded from their stored text, for the saves that evaluate them.
    let decodedSubscriptions = DecodedSubscriptionCache()
    /// The containers whose pending record changes this process has yet to deliver.
    let pendingDelivery = PendingDelivery()
    /// The storage quota per account in bytes; 0 for none (`setQuota`).
    let quota = Atomic<Int64>(0)
    /// Accounts' user record names as this process read them: an account row is written once
    /// and never changed or deleted, so a name read is final (a server's every request asks).
    let userRecordNames = Mutex<[String: String]>([:])
    /// The most names `userRecordNames` keeps before it starts over.
    static let userRecordNameCacheSize = 10_000
    /// Tokens found in force, by hash (`StorageBackedCloud+CredentialCache.swift`).
    let credentialCache = Mutex<[String: CredentialRow]>([:])

    /// The service over `storage`.
    public init(storage: any CloudStorage, clock: @escaping CloudClock = systemClock) {
        self.storage = storage
        self.epoch = storage.epoch
        self.clock = clock
    }

    /// A read transaction of the storage.
    func read<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try storage.read(body)
    }

    /// A read of one statement (`CloudStorage.readOne`): what every request asks first (its
    /// credential, its account), without a transaction where the storage can.
    func readOne<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try storage.readOne(body)
    }

    /// A write transaction of the storage (with `database`, one that writes only that
    /// database, which the storage may queue per database); a failed one forgets the schema cache, which may hold
    /// fields of the rolled-back transaction.
    /// After a commit, the record changes it queued are delivered (`deliverAfterWrite`).
    func write<T>(database key: DatabaseWriteKey? = nil,
                  _ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        let value: T
        do {
            if let key {
                value = try storage.write(database: key, body)
            } else {
                value = try storage.write(body)
            }
        } catch {
            schemaCache.withLock { $0.removeAll() }
            deliverAfterWrite()
            throw error
        }
        deliverAfterWrite()
        return value
    }

    // MARK: Accounts

    public func account(named name: String) throws(CloudError) -> Account {
        if let known = userRecordNames.withLock({ $0[name] }) {
            return Account(name: name, userRecordName: known)
        }
        var recordName = try readOne({ tx in try tx.userRecordName(ofAccount: name) })
        if recordName == nil {
            recordName = try write { tx in
                try tx.insertAccountIfAbsent(name: name, userRecordName: "_" + RandomID.hex(bytes: 16), now: clock())
                return try tx.userRecordName(ofAccount: name)
            }
        }
        guard let recordName else { return Account(name: name, userRecordName: "") }
        userRecordNames.withLock { names in
            if names.count >= Self.userRecordNameCacheSize { names.removeAll() }
            names[name] = recordName
        }
        return Account(name: name, userRecordName: recordName)
    }

    // MARK: Databases and zones (shared helpers)

    /// The owner of the database a request's rows live in: nobody for the public database, the
    /// caller for their shared database (its zone list, changes and subscriptions), and for the
    /// private database the caller, or the sharing owner of an `ownerView` (a participant's
    /// call on a shared zone, run on the owner's private database).
    func owner(of request: DatabaseRequest) -> String {
        switch request.scope {
        case .public: ""
        case .shared: request.userRecordName
        case .private: request.sharedOwner ?? request.userRecordName
        }
    }

    /// The key of the database a request's rows live in, for `write(database:_:)`.
    func databaseKey(_ request: DatabaseRequest) -> DatabaseWriteKey {
        DatabaseWriteKey(container: request.storageContainer, scope: request.scope, owner: owner(of: request))
    }

    /// The database row, or nil if it was never used.
    func findDatabase(_ request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws -> DatabaseRow? {
        try tx.findDatabase(container: request.storageContainer, scope: request.scope, owner: owner(of: request))
    }

    /// The database row, created with its `_defaultZone` on first use. Call inside a write transaction.
    func ensureDatabase(_ request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws -> DatabaseRow {
        if let row = try findDatabase(request, tx) { return row }
        if request.scope == .private, request.sharedOwner != nil {
            // Another account's database is never made on its behalf.
            throw CloudError(.zoneNotFound, "the owner has no shared zones")
        }
        return try tx.createDatabase(container: request.storageContainer, scope: request.scope, owner: owner(of: request),
                                     now: clock())
    }

    /// The database row, created (in a write transaction of its own) on first use. Call outside
    /// a transaction.
    func ensureDatabase(_ request: DatabaseRequest) throws(CloudError) -> DatabaseRow {
        if let row = try read({ tx in try findDatabase(request, tx) }) { return row }
        return try write { tx in try ensureDatabase(request, tx) }
    }

    /// The live zone, or `zoneNotFound` / `userDeletedZone` when it is gone.
    func requireZone(_ name: String, dbID: Int64, request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws -> ZoneRow {
        if let zone = try tx.findZone(name, dbID: dbID) { return zone }
        throw try missingZoneError(name, dbID: dbID, request: request, tx)
    }

    func missingZoneError(_ name: String, dbID: Int64?, request: DatabaseRequest,
                          _ tx: any CloudStorageTransaction) throws -> CloudError {
        let zoneID = request.zoneID(name)
        if let dbID, try tx.deletedZoneReason(name, dbID: dbID) == .purged {
            var error = CloudError(.userDeletedZone, "zone '\(name)' was deleted by the user; re-create it to sync again")
            error.recordID = RecordID(recordName: "", zoneID: zoneID)
            return error
        }
        return CloudError(.zoneNotFound, "zone '\(name)' does not exist in the \(request.scope.rawValue) database")
    }

    func capabilities(of zone: ZoneRow) -> ZoneCapabilities {
        if zone.name == ZoneID.defaultZoneName { return [] }
        return zone.atomic ? [.fetchChanges, .atomic] : [.fetchChanges]
    }

    func zoneToken(_ zone: ZoneRow, seq: Int64? = nil) -> ServerChangeToken {
        ServerChangeToken(rawValue: ChangeTokenCodec.encode(
            TokenPayload(kind: .zone, epoch: epoch, scopeID: zone.id, sequence: seq ?? zone.seq)))
    }

    func info(_ zone: ZoneRow, request: DatabaseRequest) -> ZoneInfo {
        let caps = capabilities(of: zone)
        return ZoneInfo(zoneID: request.zoneID(zone.name), capabilities: caps,
                        syncToken: caps.contains(.fetchChanges) ? zoneToken(zone) : nil, recordCount: zone.recordCount)
    }

    /// The change tag of the save that took `seq` in zone incarnation `zoneID`.
    func changeTag(zoneID: Int64, seq: Int64) -> String {
        String(zoneID, radix: 36) + "-" + String(seq, radix: 36)
    }
}
