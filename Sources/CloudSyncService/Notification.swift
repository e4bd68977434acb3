import CloudSyncCore

/// One device of one account in one container: where notifications are delivered.
public struct DeviceAddress: Sendable, Hashable, CustomStringConvertible {
    public var container: String
    /// The account's userRecordName.
    public var userRecordName: String
    public var deviceID: String

    public init(container: String, userRecordName: String, deviceID: String) {
        self.container = container
        self.userRecordName = userRecordName
        self.deviceID = deviceID
    }

    /// The device that sends `request`.
    public init(_ request: DatabaseRequest) {
        self.init(container: request.container, userRecordName: request.userRecordName, deviceID: request.deviceID)
    }

    public var description: String { "\(deviceID) of \(userRecordName) in \(container)" }
}

/// What the cloud delivers to a device when a subscription fires (CKNotification): the push a
/// CloudKit app receives, kept in the device's queue until the device reads it.
public struct CloudNotification: Sendable, Hashable {
    /// What fired.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A database subscription (CKDatabaseNotification): something in the database changed.
        case database
        /// A zone subscription (CKRecordZoneNotification): something in the zone changed.
        case recordZone
        /// A query subscription (CKQueryNotification): one record changed.
        case query
        /// The account's ubiquitous key-value store changed on another device.
        case keyValue
    }

    /// Why a query notification fired (CKQueryNotification.Reason).
    public enum QueryReason: String, Sendable, Hashable, CaseIterable {
        case recordCreated
        case recordUpdated
        case recordDeleted
    }

    /// Unique and increasing per cloud; notifications are delivered in this order.
    public var notificationID: String
    public var kind: Kind
    /// The subscription that fired (nil for key-value notifications).
    public var subscriptionID: String?
    public var containerIdentifier: String
    /// The database of the change (nil for key-value notifications).
    public var databaseScope: DatabaseScope?
    /// The zone of a zone or query notification.
    public var zoneID: ZoneID?
    /// The record of a query notification.
    public var recordID: RecordID?
    /// The record type of a query notification.
    public var recordType: String?
    /// Why a query notification fired.
    public var reason: QueryReason?
    /// The subscription's desired keys that the record holds (for a deletion: as it was).
    public var recordFields: [String: FieldValue]
    /// The alert text; nil for a silent notification.
    public var alertBody: String?
    /// When the change was committed (ms since 1970).
    public var creationDate: Int64

    public init(notificationID: String, kind: Kind, subscriptionID: String?, containerIdentifier: String,
                databaseScope: DatabaseScope?, zoneID: ZoneID? = nil, recordID: RecordID? = nil,
                recordType: String? = nil, reason: QueryReason? = nil, recordFields: [String: FieldValue] = [:],
                alertBody: String? = nil, creationDate: Int64) {
        self.notificationID = notificationID
        self.kind = kind
        self.subscriptionID = subscriptionID
        self.containerIdentifier = containerIdentifier
        self.databaseScope = databaseScope
        self.zoneID = zoneID
        self.recordID = recordID
        self.recordType = recordType
        self.reason = reason
        self.recordFields = recordFields
        self.alertBody = alertBody
        self.creationDate = creationDate
    }

    /// True for a notification that only wakes the app (no alert).
    public var isSilent: Bool { alertBody == nil }
}

/// Limits of the notification queue.
public enum NotificationLimits {
    /// Most notifications one read returns.
    public static let maxPerRead = 1000
    /// Devices an account keeps registered per container (each has a queue, and on the embedded
    /// cloud a wake-up file); registering one more drops the one seen longest ago.
    public static let maxDevicesPerAccount = 64
}
