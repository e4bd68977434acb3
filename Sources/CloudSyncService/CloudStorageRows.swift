import CloudSyncCore

/// A database row of a `CloudStorage`.
public struct DatabaseRow: Sendable, Hashable {
    public var id: Int64
    public var seq: Int64

    public init(id: Int64, seq: Int64) {
        self.id = id
        self.seq = seq
    }
}

/// A live zone row (one incarnation of a zone name).
public struct ZoneRow: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var atomic: Bool
    public var seq: Int64
    public var floorSeq: Int64
    public var recordCount: Int

    public init(id: Int64, name: String, atomic: Bool, seq: Int64, floorSeq: Int64, recordCount: Int) {
        self.id = id
        self.name = name
        self.atomic = atomic
        self.seq = seq
        self.floorSeq = floorSeq
        self.recordCount = recordCount
    }
}

/// A zone changed in a database: its name, state and the database sequence of the change.
public struct ZoneChangeRow: Sendable, Hashable {
    public var name: String
    /// nil for a live zone.
    public var deletion: ZoneDeletionReason?
    public var dbSeq: Int64

    public init(name: String, deletion: ZoneDeletionReason?, dbSeq: Int64) {
        self.name = name
        self.deletion = deletion
        self.dbSeq = dbSeq
    }
}

/// What a record row holds.
public struct StoredRecord: Sendable {
    public var record: Record
    public var seq: Int64
    public var deleted: Bool
    public var hasRefs: Bool
    /// The fields as stored (nil for a tombstone), when asked for.
    public var fieldsText: String?

    public init(record: Record, seq: Int64, deleted: Bool, hasRefs: Bool, fieldsText: String? = nil) {
        self.record = record
        self.seq = seq
        self.deleted = deleted
        self.hasRefs = hasRefs
        self.fieldsText = fieldsText
    }
}

/// A live record row to write.
public struct RecordWrite: Sendable {
    public var name: String
    public var type: String
    public var seq: Int64
    public var changeTag: String
    /// The fields as JSON text (`RecordJSON.fieldsText`), stored as given.
    public var fieldsText: String
    /// It holds DELETE_SELF references.
    public var hasRefs: Bool
    public var created: ChangeStamp
    public var modified: ChangeStamp

    public init(name: String, type: String, seq: Int64, changeTag: String, fieldsText: String, hasRefs: Bool,
                created: ChangeStamp, modified: ChangeStamp) {
        self.name = name
        self.type = type
        self.seq = seq
        self.changeTag = changeTag
        self.fieldsText = fieldsText
        self.hasRefs = hasRefs
        self.created = created
        self.modified = modified
    }
}

/// A key-value store row (one per container and account).
public struct KeyValueStoreRow: Sendable, Hashable {
    public var id: Int64
    public var seq: Int64

    public init(id: Int64, seq: Int64) {
        self.id = id
        self.seq = seq
    }
}

/// A stored subscription, as the storage keeps it: the service encodes and decodes
/// `definition` (`SubscriptionStorage`).
public struct SubscriptionRow: Sendable, Hashable {
    public var owner: String
    public var id: String
    /// `database`, `zone` or `query` (`Subscription.Kind.typeName`).
    public var kind: String
    public var zoneName: String?
    public var recordType: String?
    public var definition: String
    public var created: Int64
    public var modified: Int64

    public init(owner: String, id: String, kind: String, zoneName: String?, recordType: String?, definition: String,
                created: Int64, modified: Int64) {
        self.owner = owner
        self.id = id
        self.kind = kind
        self.zoneName = zoneName
        self.recordType = recordType
        self.definition = definition
        self.created = created
        self.modified = modified
    }
}

/// What a stored credential of `cloudsync serve` is.
public enum CredentialKind: String, Sendable, Hashable {
    /// A bearer token; `secret` is the lowercase hex SHA-256 of the token (the token is never stored).
    case token
    /// A server-to-server key (ECDSA P-256); `secret` is its public key in PEM.
    case serverKey = "server-key"
    /// A container API token (`ckAPIToken`, 64 hex): acts as no user, reading what `_world` may
    /// read in the public database of `container`; `secret` is its SHA-256, `account` is empty.
    case apiToken = "api-token"
}

/// One credential row: a token hash or a server-to-server public key, of one account.
public struct CredentialRow: Sendable, Hashable {
    /// The credential's ID (what `token list` shows and `token revoke` takes; a key's key ID).
    public var id: String
    /// The login name of the account it authenticates.
    public var account: String
    public var kind: CredentialKind
    /// The token's SHA-256 (hex) or the key's PEM.
    public var secret: String
    /// Milliseconds since 1970.
    public var created: Int64
    /// When it last authenticated a request (to the minute), or nil.
    public var lastUsed: Int64?
    /// Whether it carries the administrator role: container-wide acts (schema import, deploy and
    /// reset) on every container of the server (`token create --admin`).
    public var isAdmin: Bool
    /// The container an API token is for (nil for the other kinds, which act in any container).
    public var container: String?
    /// When it was revoked (milliseconds since 1970), or nil while it is in force. A revoked
    /// credential is kept, so a request presenting it is told "revoked", not "unknown".
    public var revoked: Int64?

    public init(id: String, account: String, kind: CredentialKind, secret: String, created: Int64, lastUsed: Int64? = nil,
                isAdmin: Bool = false, container: String? = nil, revoked: Int64? = nil) {
        self.revoked = revoked
        self.isAdmin = isAdmin
        self.container = container
        self.id = id
        self.account = account
        self.kind = kind
        self.secret = secret
        self.created = created
        self.lastUsed = lastUsed
    }
}

/// A zone's share, as the owner's database stores it (one per zone).
public struct ShareRow: Sendable, Hashable {
    public var zoneName: String
    public var title: String
    public var publicPermission: SharePermission
    /// The random part of the share's URL (32 hex digits).
    public var token: String
    public var created: Int64
    public var modified: Int64

    public init(zoneName: String, title: String, publicPermission: SharePermission, token: String, created: Int64,
                modified: Int64) {
        self.zoneName = zoneName
        self.title = title
        self.publicPermission = publicPermission
        self.token = token
        self.created = created
        self.modified = modified
    }
}

/// One participant of a share, in the owner's database.
public struct ShareParticipantRow: Sendable, Hashable {
    public var userRecordName: String
    public var permission: SharePermission
    public var accepted: Bool

    public init(userRecordName: String, permission: SharePermission, accepted: Bool) {
        self.userRecordName = userRecordName
        self.permission = permission
        self.accepted = accepted
    }
}

/// A zone of a participant's shared database: which owner's zone, whether it is still shared
/// with them, and the shared database's sequence of its last change.
public struct SharedZoneRow: Sendable, Hashable {
    public var owner: String
    public var zoneName: String
    /// False once the share ended for this participant.
    public var live: Bool
    public var dbSeq: Int64

    public init(owner: String, zoneName: String, live: Bool, dbSeq: Int64) {
        self.owner = owner
        self.zoneName = zoneName
        self.live = live
        self.dbSeq = dbSeq
    }
}
