import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto

/// This account's identity keys and everyone's published public keys, over one session
/// (`IdentityContext`: the command line's `CloudSession`, or any other caller with a cloud and an account).
///
/// - Private keys: one `IdentityKey` record per key in the private database's default zone,
///   named `identity-<first 32 fingerprint digits>`, fields `publicKey` (BYTES, raw 32),
///   `createdAt` (TIMESTAMP) and `sealedKey` (BYTES: 12-byte nonce, then AES-256-GCM of the raw
///   private key and its tag) under the account's data key, with the associated data
///   `cloudsync identity key v1 ` + the record name, so a sealed key moved to another record
///   does not open. The newest is current; older ones stay so old messages still open.
/// - Public key: the `UserIdentity` record named by the owner's userRecordName in the public
///   database: `account` (STRING; left out while the account is not discoverable), `publicKey` (BYTES), `fingerprint` (STRING), `createdAt`
///   (TIMESTAMP), `previousKeys` (BYTES_LIST, oldest first). The cloud lets only that user create
///   it (`ServiceRules.validatePublicSave`) and only its creator change it.
public struct IdentityStore {
    /// The cloud, account and data key it works with.
    public let session: any IdentityContext

    /// A store over `session`.
    public init(session: any IdentityContext) { self.session = session }

    static let keyAADPrefix = "cloudsync identity key v1 "

    // MARK: Own keys

    /// Every identity key of this account, oldest first (needs the data key).
    public func ownKeys() throws -> [IdentityKey] {
        let records = try IdentityStore.queryAll(session, Identity.privateRecordType, .truePredicate, scope: .private)
        if records.isEmpty { return [] }
        let dataKey = try unlockedDataKey()
        return try records.map { record throws -> IdentityKey in
            guard case .bytes(let sealed)? = record["sealedKey"], sealed.count > AESGCM.nonceSize,
                  case .timestamp(let created)? = record["createdAt"] else {
                throw IdentityError.privateKeyDamaged(recordName: record.recordID.recordName)
            }
            let aad = Array((IdentityStore.keyAADPrefix + record.recordID.recordName).utf8)
            guard let raw = try? AESGCM.open(Array(sealed[AESGCM.nonceSize...]), key: dataKey,
                                             nonce: Array(sealed[..<AESGCM.nonceSize]), aad: aad),
                  let key = try? X25519PrivateKey(rawRepresentation: raw) else {
                throw IdentityError.privateKeyDamaged(recordName: record.recordID.recordName)
            }
            return IdentityKey(privateKey: key, createdAt: created)
        }.sorted { $0.createdAt < $1.createdAt }
    }

    /// The current identity key, made and published on first use; `created` tells whether it
    /// was made now.
    public func current() throws -> (key: IdentityKey, created: Bool) {
        let keys = try ownKeys()
        if let last = keys.last {
            try publishIfNeeded(keys)
            return (last, false)
        }
        let key = try makeKey(after: nil)
        try publishIfNeeded([key])
        return (key, true)
    }

    /// Makes a new current key; the old ones stay. Returns the old current key and the new one.
    public func rotate() throws -> (old: IdentityKey?, new: IdentityKey) {
        let keys = try ownKeys()
        let key = try makeKey(after: keys.last)
        try publishIfNeeded(keys + [key])
        return (keys.last, key)
    }

    func unlockedDataKey() throws -> [UInt8] {
        try session.identityDataKey()
    }

    func makeKey(after previous: IdentityKey?) throws -> IdentityKey {
        let privateKey = try X25519PrivateKey.generate()
        // Strictly after the previous key, so "newest is current" holds even within one millisecond.
        let created = max(systemClock(), (previous?.createdAt ?? 0) + 1)
        let key = IdentityKey(privateKey: privateKey, createdAt: created)
        let recordName = "identity-" + key.fingerprint.prefix(32)
        let nonce = SecureRandom.bytes(AESGCM.nonceSize)
        let sealed = try AESGCM.seal(privateKey.rawRepresentation, key: try unlockedDataKey(), nonce: nonce,
                                     aad: Array((IdentityStore.keyAADPrefix + recordName).utf8))
        let record = Record(recordID: RecordID(recordName: recordName, zoneID: session.request(.private).zoneID(ZoneID.defaultZoneName)),
                            recordType: Identity.privateRecordType,
                            fields: ["publicKey": .bytes(key.publicKey.rawRepresentation), "createdAt": .timestamp(created),
                                     "sealedKey": .bytes(nonce + sealed)])
        let result = try session.cloud.modifyRecords(ModifyRequest(saves: [record]), in: session.request(.private))
        if let error = result.partialFailure { throw error }
        return key
    }

    /// Publishes (or updates) the public record when it does not show `keys` (newest current).
    func publishIfNeeded(_ keys: [IdentityKey]) throws {
        guard let current = keys.last else { return }
        let me = session.account
        let existing = try IdentityStore.fetch(session, RecordID(recordName: me.userRecordName,
                                                                 zoneID: session.request(.public).zoneID(ZoneID.defaultZoneName)),
                                               scope: .public)
        let previous = keys.dropLast().map { FieldValue.bytes($0.publicKey.rawRepresentation) }
        var fields: [String: FieldValue] = ["publicKey": .bytes(current.publicKey.rawRepresentation),
                                            "fingerprint": .string(current.fingerprint), "createdAt": .timestamp(current.createdAt)]
        // The login goes in the public record only while the account lets others find it by it.
        if try session.users().callerIdentity(in: session.request(.public)).discoverable ?? true {
            fields["account"] = .string(me.name)
        }
        if !previous.isEmpty { fields["previousKeys"] = .list(.bytes, Array(previous)) }
        if let existing, existing.fields == fields { return }
        var record = existing ?? Record(recordID: RecordID(recordName: me.userRecordName,
                                                          zoneID: session.request(.public).zoneID(ZoneID.defaultZoneName)),
                                        recordType: Identity.publicRecordType)
        record.fields = fields
        let result = try session.cloud.modifyRecords(ModifyRequest(saves: [record], policy: .allKeys), in: session.request(.public))
        if let error = result.partialFailure { throw error }
    }

    // MARK: Others' keys

    /// The account that `name` names for this account: itself, a userRecordName (`_` and 32
    /// hex digits: any account), or a login that the cloud's directory lets others find
    /// (`users/lookup/account` over `serve`; nothing is created). Never acts as that account.
    public func user(_ name: String) throws -> DirectoryUser {
        let me = session.account
        if name == me.name || name == me.userRecordName {
            return try session.lookUpUser(.userRecordName(me.userRecordName))
                ?? DirectoryUser(userRecordName: me.userRecordName, accountName: me.name)
        }
        let bytes = Array(name.utf8)
        let key: UserLookupKey = bytes.count == 33 && bytes[0] == UInt8(ascii: "_") && name.dropFirst().allSatisfy(\.isHexDigit)
            ? .userRecordName(name) : .accountName(name)
        guard let user = try session.lookUpUser(key) else { throw IdentityError.unknownAccount(account: name) }
        return user
    }

    /// The userRecordName of the account `name` names (see `user(_:)`).
    public func userRecordName(of name: String) throws -> String {
        if name == session.account.name { return session.account.userRecordName }
        return try user(name).userRecordName
    }

    /// The published identity of `name` (a login or userRecordName), or `notPublished` (exit 3);
    /// `user` is who the directory says it is.
    public func published(account name: String) throws -> PublishedIdentity {
        let user = try user(name)
        guard var identity = try published(userRecordName: user.userRecordName, account: name) else {
            throw IdentityError.notPublished(account: name)
        }
        identity.user = user
        return identity
    }

    /// The published identity of a userRecordName, nil when there is none; a record that its
    /// owner did not make, or that is malformed, is refused.
    public func published(userRecordName: String, account: String? = nil) throws -> PublishedIdentity? {
        let id = RecordID(recordName: userRecordName, zoneID: session.request(.public).zoneID(ZoneID.defaultZoneName))
        guard let record = try IdentityStore.fetch(session, id, scope: .public) else { return nil }
        let label = account ?? userRecordName
        guard record.recordType == Identity.publicRecordType else {
            throw IdentityError.badRecord(account: label, reason: "the record is a \(record.recordType)")
        }
        guard record.system?.created.userRecordName == userRecordName else {
            throw IdentityError.badRecord(account: label, reason: "it was not published by that account")
        }
        guard case .bytes(let raw)? = record["publicKey"], let key = try? X25519PublicKey(rawRepresentation: raw) else {
            throw IdentityError.badRecord(account: label, reason: "its publicKey is not 32 bytes")
        }
        var previous: [X25519PublicKey] = []
        if case .list(_, let items)? = record["previousKeys"] {
            for case .bytes(let bytes) in items {
                if let old = try? X25519PublicKey(rawRepresentation: bytes) { previous.append(old) }
            }
        }
        var created: Int64 = 0
        if case .timestamp(let ms)? = record["createdAt"] { created = ms }
        var name = label
        if case .string(let published)? = record["account"] { name = published }
        return PublishedIdentity(account: name, userRecordName: userRecordName, publicKey: key, createdAt: created,
                                 previousKeys: previous)
    }

    // MARK: Cloud helpers

    /// One record by ID, nil when it does not exist.
    public static func fetch(_ session: any IdentityContext, _ id: RecordID, scope: DatabaseScope) throws -> Record? {
        let results = try session.cloud.fetchRecords([id], in: session.request(scope))
        switch results[id] {
        case .success(let record)?: return record
        case .failure(let error)?: if error.code == .unknownItem || error.code == .zoneNotFound { return nil } else { throw error }
        case nil: return nil
        }
    }

    /// Every record of a query in the default zone, all pages.
    public static func queryAll(_ session: any IdentityContext, _ type: String, _ predicate: Predicate, sort: [SortDescriptor] = [],
                                scope: DatabaseScope) throws -> [Record] {
        var records: [Record] = []
        var continuation: String?
        repeat {
            guard let page = try page(session, RecordQuery(recordType: type, predicate: predicate, sort: sort,
                                                           continuation: continuation), scope: scope) else { return records }
            records += page.records
            continuation = page.continuation
        } while continuation != nil
        return records
    }

    /// One page of a query; nil when the zone or type does not exist yet.
    static func page(_ session: any IdentityContext, _ query: RecordQuery, scope: DatabaseScope) throws(CloudError) -> QueryPage? {
        do {
            return try session.cloud.queryRecords(query, in: session.request(scope))
        } catch {
            if error.code == .zoneNotFound || error.code == .unknownItem { return nil }
            throw error
        }
    }
}
