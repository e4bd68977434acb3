import CloudSyncCore

/// Why a zone went away.
public enum ZoneDeletionReason: String, Sendable, Hashable {
    /// Deleted by an app.
    case deleted
    /// Deleted by the user in iCloud settings.
    case purged
    /// In the shared database only: the share ended for this participant (removed, left, or
    /// the owner deleted the share or the zone). The zone and its records stay the owner's.
    case unshared
}

/// Zone-level changes of a database since a token.
public struct DatabaseChanges: Sendable {
    /// Zones with new record changes (or new zones). Deletions apply before changes: a zone
    /// deleted and re-created appears in both lists.
    public var changedZones: [ZoneID]
    public var deletedZones: [(zoneID: ZoneID, reason: ZoneDeletionReason)]
    public var token: ServerChangeToken
    public var moreComing: Bool

    public init(changedZones: [ZoneID], deletedZones: [(zoneID: ZoneID, reason: ZoneDeletionReason)],
                token: ServerChangeToken, moreComing: Bool) {
        self.changedZones = changedZones
        self.deletedZones = deletedZones
        self.token = token
        self.moreComing = moreComing
    }
}

/// A deleted record as change tracking reports it.
public struct RecordDeletion: Sendable, Hashable {
    public var recordID: RecordID
    public var recordType: String

    public init(recordID: RecordID, recordType: String) {
        self.recordID = recordID
        self.recordType = recordType
    }
}

/// One page of record changes of a zone.
public struct ZoneChanges: Sendable {
    /// Changed records, in the order the server committed them.
    public var changed: [Record]
    public var deleted: [RecordDeletion]
    /// The token to store together with this page.
    public var token: ServerChangeToken
    public var moreComing: Bool
    /// The fields of `changed[i]` as the backend stores them (JSON text that
    /// `RecordJSON.decodeFields` turns into exactly those fields), when it keeps them so: a
    /// cache that stores fields as text can keep this instead of encoding them again. Empty,
    /// or nil entries, where the backend has no such text.
    public var encodedFields: [String?]

    public init(changed: [Record], deleted: [RecordDeletion], token: ServerChangeToken, moreComing: Bool,
                encodedFields: [String?] = []) {
        self.changed = changed
        self.deleted = deleted
        self.token = token
        self.moreComing = moreComing
        self.encodedFields = encodedFields
    }
}
