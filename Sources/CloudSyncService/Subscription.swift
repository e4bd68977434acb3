import CloudSyncCore

/// A subscription kept by the cloud (CKSubscription): which changes of one database its owner
/// wants to hear about. It belongs to the account that saved it; every registered device of that
/// account except the one that made a change receives a `CloudNotification` when it fires.
public struct Subscription: Sendable, Hashable {
    /// What a subscription watches.
    public enum Kind: Sendable, Hashable {
        /// Any change in the database: records of any zone, zones created or deleted
        /// (CKDatabaseSubscription). Private and shared databases only. Silent, coalescing.
        case database
        /// Any record change in one zone, and the zone's deletion (CKRecordZoneSubscription).
        /// Custom zones of the private database only. Silent, coalescing.
        case recordZone(zoneName: String)
        /// Records of a type that match a predicate (CKQuerySubscription). The only kind the
        /// public database allows. One notification per matching change.
        case query(QuerySubscription)

        /// The Web Services name: `database`, `zone` or `query`.
        public var typeName: String {
            switch self {
            case .database: "database"
            case .recordZone: "zone"
            case .query: "query"
            }
        }
    }

    /// Unique per account and database; saving an existing ID replaces that subscription.
    public var subscriptionID: String
    public var kind: Kind
    /// What each notification carries.
    public var notificationInfo: NotificationInfo
    /// When the cloud first stored it (ms since 1970); nil until saved.
    public var creationDate: Int64?
    /// When the cloud last stored it (ms since 1970); nil until saved.
    public var modificationDate: Int64?
    /// In the shared database: the userRecordName of the owner of the zone it watches (zones of
    /// two owners may have one name); nil elsewhere, and when it names no zone. Saving one in
    /// the shared database without it takes the request's owner, or the one owner sharing a zone
    /// of that name.
    public var zoneOwner: String?

    /// A subscription to save.
    public init(subscriptionID: String, kind: Kind, notificationInfo: NotificationInfo = NotificationInfo(),
                creationDate: Int64? = nil, modificationDate: Int64? = nil, zoneOwner: String? = nil) {
        self.subscriptionID = subscriptionID
        self.kind = kind
        self.notificationInfo = notificationInfo
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.zoneOwner = zoneOwner
    }

    /// The zone a zone subscription watches, or the zone a query subscription is limited to.
    public var zoneName: String? {
        switch kind {
        case .database: nil
        case .recordZone(let name): name
        case .query(let query): query.zoneName
        }
    }

    /// The query of a query subscription.
    public var query: QuerySubscription? {
        if case .query(let query) = kind { return query }
        return nil
    }
}

/// The query of a query subscription (CKQuerySubscription).
public struct QuerySubscription: Sendable, Hashable {
    public var recordType: String
    public var predicate: Predicate
    /// Only records of this zone; nil for every zone of the database.
    public var zoneName: String?
    /// Which changes fire: at least one of create, update, delete.
    public var firesOn: QueryFiresOn
    /// Delete the subscription after it fired once (CKQuerySubscription.Options.firesOnce).
    public var firesOnce: Bool

    public init(recordType: String, predicate: Predicate = .truePredicate, zoneName: String? = nil,
                firesOn: QueryFiresOn = .all, firesOnce: Bool = false) {
        self.recordType = recordType
        self.predicate = predicate
        self.zoneName = zoneName
        self.firesOn = firesOn
        self.firesOnce = firesOnce
    }
}

/// The changes a query subscription fires on.
///
/// A save fires `create` when the record had no live version before the change and `update`
/// when it had one; either way the record *as saved* must match the predicate. A deletion fires
/// `delete` when the record *as it was before* matched.
public struct QueryFiresOn: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A matching record was created (firesOnRecordCreation).
    public static let create = QueryFiresOn(rawValue: 1)
    /// A matching record was updated (firesOnRecordUpdate).
    public static let update = QueryFiresOn(rawValue: 2)
    /// A matching record was deleted (firesOnRecordDeletion).
    public static let delete = QueryFiresOn(rawValue: 4)
    /// All three.
    public static let all: QueryFiresOn = [.create, .update, .delete]

    /// The Web Services names, in the order create, update, delete.
    public var names: [String] {
        var out: [String] = []
        if contains(.create) { out.append("create") }
        if contains(.update) { out.append("update") }
        if contains(.delete) { out.append("delete") }
        return out
    }

    /// Parses a comma-separated list of `create`, `update`, `delete` (case-insensitive; CloudKit's
    /// `recordCreation`-style names and `all` are accepted too). Empty items, unknown words and an
    /// empty list are `invalidArguments`.
    public init(parsing text: String) throws(CloudError) {
        var value: QueryFiresOn = []
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !text.isEmpty else {
            throw CloudError(.invalidArguments, "fires-on is empty; give one or more of create, update, delete")
        }
        for item in items {
            let word = item.trimmingSpaces().lowercased()
            switch word {
            case "create", "created", "creation", "recordcreation", "firesonrecordcreation": value.insert(.create)
            case "update", "updated", "recordupdate", "firesonrecordupdate": value.insert(.update)
            case "delete", "deleted", "deletion", "recorddeletion", "firesonrecorddeletion": value.insert(.delete)
            case "all": value.formUnion(.all)
            case "":
                throw CloudError(.invalidArguments, "fires-on '\(text)' has an empty item; use create, update, delete separated by commas")
            default:
                throw CloudError(.invalidArguments, "unknown fires-on event '\(item)'; use create, update or delete")
            }
        }
        self = value
    }
}

/// What notifications of a subscription carry (CKSubscription.NotificationInfo).
public struct NotificationInfo: Sendable, Hashable {
    /// The text of a visible (alert) notification; nil for a silent one (content-available).
    public var alertBody: String?
    /// Fields of the record copied into each query notification (at most
    /// `SubscriptionLimits.maxDesiredKeys`).
    public var desiredKeys: [String]

    public init(alertBody: String? = nil, desiredKeys: [String] = []) {
        self.alertBody = alertBody
        self.desiredKeys = desiredKeys
    }

    /// True when the notification only wakes the app (shouldSendContentAvailable).
    public var isSilent: Bool { alertBody == nil }
}

/// Limits of subscriptions, as CloudKit.
public enum SubscriptionLimits {
    /// Desired keys per subscription.
    public static let maxDesiredKeys = 3
    /// Length of a subscription ID, in bytes.
    public static let maxIDLength = 255
    /// Length of an alert body, in bytes.
    public static let maxAlertLength = 1024
    /// Subscriptions saved or deleted in one call.
    public static let maxPerCall = 400
    /// Subscriptions one account keeps in one database: each is evaluated on other accounts'
    /// writes (public query subscriptions) or fans out on its own.
    public static let maxPerAccount = 100
    /// Comparisons in all of one account's query subscriptions of one database together (each
    /// predicate also at most `Predicate.maxComparisons`): what one account's subscriptions may
    /// cost every save of the types they watch.
    public static let maxComparisonsPerAccount = 2_000
    /// The stored form of one subscription (its JSON definition), in bytes.
    public static let maxStoredBytes = 64 << 10
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
