import CloudSyncCore

/// One operation of the CloudKit Web Services protocol, named by the tail of its path
/// (`/database/1/{container}/{environment}/{database}/` + `rawValue`, two or three segments). The
/// documented endpoints keep Apple's names; the extensions of this project (`kv/…`, `assets/data`,
/// `assets/download`, `notifications/poll`, `tokens/unregister`, `schema/…`, `shares/…`,
/// `users/lookup/account`, `users/caller/modify`) are marked as such in docs/ARCHITECTURE.md.
public enum WebServicesEndpoint: String, Sendable, Hashable, CaseIterable {
    case recordsModify = "records/modify"
    case recordsLookup = "records/lookup"
    case recordsQuery = "records/query"
    case recordsChanges = "records/changes"
    case zonesList = "zones/list"
    case zonesLookup = "zones/lookup"
    case zonesModify = "zones/modify"
    case zonesChanges = "zones/changes"
    case changesDatabase = "changes/database"
    case subscriptionsList = "subscriptions/list"
    case subscriptionsLookup = "subscriptions/lookup"
    case subscriptionsModify = "subscriptions/modify"
    case usersCurrent = "users/current"
    /// The caller's user identity (`{userRecordName, firstName, lastName, nameComponents}`, plus
    /// the extension members `accountName` and `discoverable`).
    case usersCaller = "users/caller"
    /// Extension: changes the caller's display name and discoverability (`{firstName, lastName, discoverable}`).
    case usersCallerModify = "users/caller/modify"
    /// Users by userRecordName (`{users: [{userRecordName}]}`), at most 100 per call.
    case usersLookupID = "users/lookup/id"
    /// Extension: discoverable users by account login (`{users: [{accountName}]}`), at most 100
    /// per call; this project's accounts have logins where Apple's have email addresses
    /// (`users/lookup/email`).
    case usersLookupAccount = "users/lookup/account"
    case assetsUpload = "assets/upload"
    /// Extension: the upload URL that `assets/upload` hands out; the body is the file's bytes.
    case assetsData = "assets/data"
    /// Extension: the download URL of an asset (`?fileChecksum=…&size=…`; also
    /// `assets/download/NAME`, a `downloadURL` whose `${f}` was filled in); the reply is its bytes.
    case assetsDownload = "assets/download"
    case tokensCreate = "tokens/create"
    case tokensRegister = "tokens/register"
    /// Extension: stops delivering notifications to a device (CloudService.unregisterDevice).
    case tokensUnregister = "tokens/unregister"
    /// Extension: the long-poll notification endpoint (the `webcourierURL` of `tokens/create`).
    case notificationsPoll = "notifications/poll"
    /// Extension: writes to the ubiquitous key-value store (private database only).
    case kvModify = "kv/modify"
    /// Extension: changes of the ubiquitous key-value store since a `syncToken`.
    case kvChanges = "kv/changes"
    /// Extension: the schema of the path's environment as .ckdb text (any signed-in account).
    case schemaExport = "schema/export"
    /// Extension: replaces the development schema (`{schema, dryRun}`; development path only).
    case schemaImport = "schema/import"
    /// Extension: promotes development to production when additive (`{dryRun}`).
    case schemaDeploy = "schema/deploy"
    /// Extension: deletes the development schema and all development data (development path only).
    case schemaReset = "schema/reset"
    /// Extension (issue 18): makes or updates the share of a zone (`{zoneName, title, publicPermission}`; private path).
    case sharesModify = "shares/modify"
    /// Extension: invites participants or changes their permission (`{zoneName, add, permission}`), or
    /// removes them (`{zoneName, remove}`); private path.
    case sharesParticipants = "shares/participants"
    /// Extension: stops sharing a zone (`{zoneName}`; private path).
    case sharesDelete = "shares/delete"
    /// Extension: the caller's shares (`{zoneName?}`): owned on the private path, accepted on the shared path.
    case sharesList = "shares/list"
    /// Extension: accepts a share (`{url}`; shared path).
    case sharesAccept = "shares/accept"
    /// Extension: leaves a share (`{zoneID: {zoneName, ownerRecordName}}`; shared path).
    case sharesLeave = "shares/leave"
    /// Extension: the userRecordName of an account login (`{accountName}` → `{userRecordName}`).
    case sharesUser = "shares/user"

    /// True when sending the request twice has the effect of sending it once (reads, device
    /// registration): a client may send it again after a connection closed before any reply.
    public var isIdempotent: Bool {
        switch self {
        case .recordsLookup, .recordsQuery, .recordsChanges, .zonesList, .zonesLookup, .zonesChanges, .changesDatabase,
             .subscriptionsList, .subscriptionsLookup, .usersCurrent, .assetsDownload, .tokensCreate, .tokensRegister,
             .tokensUnregister, .kvChanges, .schemaExport, .sharesList, .sharesUser, .usersCaller, .usersCallerModify,
             .usersLookupID, .usersLookupAccount:
            true
        case .recordsModify, .zonesModify, .subscriptionsModify, .assetsUpload, .assetsData, .notificationsPoll, .kvModify,
             .schemaImport, .schemaDeploy, .schemaReset, .sharesModify, .sharesParticipants, .sharesDelete, .sharesAccept,
             .sharesLeave:
            false
        }
    }

    /// Whether a request a node may have applied before failing (a balancer's 502 or 504) is
    /// sent again: the idempotent endpoints; a records modify, whose repeat `HTTPCloud`
    /// reconciles with its own first try; and a notifications poll (a repeat reads the next ones).
    public var isSafeToRepeat: Bool {
        switch self {
        case .recordsModify, .notificationsPoll: true
        default: isIdempotent
        }
    }

    /// The HTTP methods the endpoint answers. Apple documents `GET` for the list-style reads
    /// and `users/current`; they also accept `POST` here, as Apple's servers do.
    public var methods: [String] {
        switch self {
        case .zonesList, .subscriptionsList, .usersCurrent, .usersCaller, .schemaExport: ["GET", "POST"]
        case .assetsDownload: ["GET"]
        default: ["POST"]
        }
    }
}

/// The CloudKit environment named in a path.
public enum WebServicesEnvironment: String, Sendable, Hashable, CaseIterable {
    case development
    case production
}

/// A parsed `/database/1/{container}/{environment}/{database}/{endpoint}` path.
public struct WebServicesPath: Sendable, Hashable {
    /// The protocol version in every path.
    public static let version = "1"

    public var container: String
    public var environment: WebServicesEnvironment
    public var scope: DatabaseScope
    public var endpoint: WebServicesEndpoint

    public init(container: String, environment: WebServicesEnvironment, scope: DatabaseScope,
                endpoint: WebServicesEndpoint) {
        self.container = container
        self.environment = environment
        self.scope = scope
        self.endpoint = endpoint
    }

    /// The path text, as a client sends it.
    public var text: String {
        "/database/\(WebServicesPath.version)/\(container)/\(environment.rawValue)/\(scope.rawValue)/\(endpoint.rawValue)"
    }
}
