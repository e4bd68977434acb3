import CloudSyncService
import CloudSyncCore

/// A `CloudService` that passes every call to `base`. Test doubles subclass it and override only
/// the calls they change, so a new protocol requirement is forwarded in one place.
open class ForwardingCloud: CloudService, @unchecked Sendable {
    public let base: any CloudService

    public init(base: any CloudService) { self.base = base }

    open var capabilities: CloudCapabilities { base.capabilities.forwarded(through: self) }

    open func account(named name: String) throws(CloudError) -> Account { try base.account(named: name) }
    open func saveZones(_ zones: [ZoneSpec], in d: DatabaseRequest) throws(CloudError) -> [ZoneInfo] { try base.saveZones(zones, in: d) }
    open func fetchAllZones(in d: DatabaseRequest) throws(CloudError) -> [ZoneInfo] { try base.fetchAllZones(in: d) }
    open func deleteZones(_ names: [String], purge: Bool, in d: DatabaseRequest) throws(CloudError) {
        try base.deleteZones(names, purge: purge, in: d)
    }
    open func modifyRecords(_ request: ModifyRequest, in d: DatabaseRequest) throws(CloudError) -> ModifyResult {
        try base.modifyRecords(request, in: d)
    }
    open func fetchRecords(_ ids: [RecordID], in d: DatabaseRequest) throws(CloudError) -> [RecordID: Result<Record, CloudError>] {
        try base.fetchRecords(ids, in: d)
    }
    open func queryRecords(_ query: RecordQuery, in d: DatabaseRequest) throws(CloudError) -> QueryPage { try base.queryRecords(query, in: d) }
    open func fetchDatabaseChanges(since token: ServerChangeToken?, limit: Int, in d: DatabaseRequest) throws(CloudError) -> DatabaseChanges {
        try base.fetchDatabaseChanges(since: token, limit: limit, in: d)
    }
    open func fetchZoneChanges(_ zone: String, since token: ServerChangeToken?, limit: Int,
                               in d: DatabaseRequest) throws(CloudError) -> ZoneChanges {
        try base.fetchZoneChanges(zone, since: token, limit: limit, in: d)
    }
    /// Through the overridable call above, so a double sees every fetch; its records come whole.
    public func fetchZoneChanges(_ zone: String, since token: ServerChangeToken?, limit: Int,
                                 holding known: (any KnownRecordVersions)?, in d: DatabaseRequest) throws(CloudError) -> ZoneChanges {
        try fetchZoneChanges(zone, since: token, limit: limit, in: d)
    }
    open func uploadAssets(_ contents: [[UInt8]], in d: DatabaseRequest) throws(CloudError) -> [AssetReference] {
        try base.uploadAssets(contents, in: d)
    }
    open func fetchAsset(_ reference: AssetReference, of record: RecordID?, in d: DatabaseRequest) throws(CloudError) -> [UInt8] {
        try base.fetchAsset(reference, of: record, in: d)
    }
    open func modifyKeyValues(_ writes: [KeyValueWrite], in d: DatabaseRequest) throws(CloudError) -> [KeyValueItem] {
        try base.modifyKeyValues(writes, in: d)
    }
    open func fetchKeyValueChanges(since token: ServerChangeToken?, in d: DatabaseRequest) throws(CloudError) -> KeyValueChanges {
        try base.fetchKeyValueChanges(since: token, in: d)
    }
    open func saveSubscriptions(_ subscriptions: [Subscription], in d: DatabaseRequest) throws(CloudError) -> [Subscription] {
        try base.saveSubscriptions(subscriptions, in: d)
    }
    open func fetchAllSubscriptions(in d: DatabaseRequest) throws(CloudError) -> [Subscription] { try base.fetchAllSubscriptions(in: d) }
    open func deleteSubscriptions(_ ids: [String], in d: DatabaseRequest) throws(CloudError) { try base.deleteSubscriptions(ids, in: d) }
    open func registerDevice(_ device: DeviceAddress) throws(CloudError) { try base.registerDevice(device) }
    open func unregisterDevice(_ device: DeviceAddress) throws(CloudError) { try base.unregisterDevice(device) }
    open func takeNotifications(for device: DeviceAddress, limit: Int) throws(CloudError) -> [CloudNotification] {
        try base.takeNotifications(for: device, limit: limit)
    }
    open func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        try base.makeNotificationWaiter(for: device)
    }
}
