import CloudSyncCore

/// What a participant of a share may do with the shared zone (CKShare.ParticipantPermission).
public enum SharePermission: String, Sendable, Hashable, CaseIterable {
    /// No access: as a share's public permission, only invited accounts may accept.
    case none
    /// Read the zone's records.
    case readOnly = "read-only"
    /// Read, save and delete the zone's records (not the share itself).
    case readWrite = "read-write"

    /// Accepts the CLI names and CloudKit's (`readOnly`, `READ_ONLY`, …), case-insensitive.
    public init?(argument: String) {
        switch String(argument.lowercased().map { $0 == "_" ? "-" : $0 }) {
        case "none": self = .none
        case "read-only", "readonly": self = .readOnly
        case "read-write", "readwrite": self = .readWrite
        default: return nil
        }
    }
}

/// Where an invited account stands (CKShare.ParticipantAcceptanceStatus).
public enum ShareAcceptance: String, Sendable, Hashable {
    /// Invited, not accepted yet: the zone is not in their shared database.
    case pending
    /// Accepted: the zone is in their shared database.
    case accepted
}

/// One participant of a share.
public struct ShareParticipant: Sendable, Hashable {
    public var userRecordName: String
    /// The account's login name, when the cloud knows it.
    public var accountName: String?
    public var permission: SharePermission
    public var acceptance: ShareAcceptance

    public init(userRecordName: String, accountName: String?, permission: SharePermission, acceptance: ShareAcceptance) {
        self.userRecordName = userRecordName
        self.accountName = accountName
        self.permission = permission
        self.acceptance = acceptance
    }
}

/// A zone-wide share (CKShare of a record zone): its record in the owner's zone is
/// `cloudkit.zoneshare` of type `cloudkit.share`.
public struct Share: Sendable, Hashable {
    /// The record name of a zone's share, as CloudKit names it.
    public static let recordName = "cloudkit.zoneshare"
    /// The record type of shares.
    public static let recordType = "cloudkit.share"

    /// The shared zone, with its owner's userRecordName.
    public var zoneID: ZoneID
    /// The owner's login name, when the cloud knows it.
    public var ownerName: String?
    public var title: String
    /// What anyone holding the URL gets on accepting (`none`: invited accounts only).
    public var publicPermission: SharePermission
    /// The URL participants accept (`ShareURL`).
    public var url: String
    /// Every invited account (owners see all; a participant sees the list too, as in CloudKit).
    public var participants: [ShareParticipant]
    /// Milliseconds since 1970.
    public var created: Int64
    public var modified: Int64

    public init(zoneID: ZoneID, ownerName: String?, title: String, publicPermission: SharePermission, url: String,
                participants: [ShareParticipant], created: Int64, modified: Int64) {
        self.zoneID = zoneID
        self.ownerName = ownerName
        self.title = title
        self.publicPermission = publicPermission
        self.url = url
        self.participants = participants
        self.created = created
        self.modified = modified
    }

    /// The share's record name (its shareID), the same for every zone share.
    public var shareID: RecordID { RecordID(recordName: Share.recordName, zoneID: zoneID) }

    /// The participant entry of an account, or nil.
    public func participant(_ userRecordName: String) -> ShareParticipant? {
        participants.first { $0.userRecordName == userRecordName }
    }
}

/// The URL of a share: `cloudsync://share/<container>/<environment>/<owner>/<zone>/<token>`. The
/// token is random and changes when a share is made again, so the URL of a deleted share stays
/// refused.
public struct ShareURL: Sendable, Hashable {
    public static let prefix = "cloudsync://share/"

    public var container: String
    public var environment: CloudEnvironment
    public var ownerRecordName: String
    public var zoneName: String
    public var token: String

    public init(container: String, environment: CloudEnvironment, ownerRecordName: String, zoneName: String, token: String) {
        self.container = container
        self.environment = environment
        self.ownerRecordName = ownerRecordName
        self.zoneName = zoneName
        self.token = token
    }

    /// The URL text.
    public var text: String {
        ShareURL.prefix + [container, environment.rawValue, ownerRecordName, zoneName, token].joined(separator: "/")
    }

    /// Parses a share URL; anything else is `invalidArguments` (exit 65).
    public init(parsing text: String) throws(CloudError) {
        let bad = CloudError(.invalidArguments, "\(NameRules.quoted(text)) is not a cloudsync share URL (\(ShareURL.prefix)…)")
        guard text.hasPrefix(ShareURL.prefix), text.utf8.count <= 1024 else { throw bad }
        let parts = text.dropFirst(ShareURL.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, let environment = CloudEnvironment(rawValue: parts[1]), !parts[2].isEmpty,
              parts[4].utf8.count == 32, parts[4].allSatisfy(\.isHexDigit) else { throw bad }
        do {
            try NameRules.validateContainerIdentifier(parts[0])
            try NameRules.validateZoneName(parts[3])
        } catch {
            throw bad
        }
        self.init(container: parts[0], environment: environment, ownerRecordName: parts[2], zoneName: parts[3], token: parts[4])
    }
}
