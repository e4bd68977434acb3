import CloudSyncService
import CloudSyncCore

/// Why keys changed from elsewhere (NSUbiquitousKeyValueStoreChangeReason).
public enum KeyValueChangeReason: String, Sendable, Hashable {
    /// Another device wrote them.
    case serverChange = "ServerChange"
    /// The first sync of this device brought them.
    case initialSyncChange = "InitialSyncChange"
    /// A local write went over a limit in the cloud and was rolled back to the cloud's value.
    case quotaViolationChange = "QuotaViolationChange"
    /// The account (or the cloud) changed: the local copy was replaced.
    case accountChange = "AccountChange"
}

/// Changes that arrived from elsewhere during one sync.
public struct KeyValueExternalChange: Sendable, Hashable {
    public var reason: KeyValueChangeReason
    /// Each changed key with its new value (nil: deleted).
    public var items: [KeyValueItem]
}

/// Syncs the device's copy of the account's key-value store: pushes pending writes, pulls the
/// rest; per key, last writer wins by the cloud's timestamp.
public struct KeyValueSync {
    public let cloud: any CloudService
    public let store: DeviceStore
    public let request: DatabaseRequest

    public init(cloud: any CloudService, store: DeviceStore, request: DatabaseRequest) {
        self.cloud = cloud
        self.store = store
        self.request = request
    }

    var container: String { request.container }

    /// Pushes, then pulls. Returns the external changes, grouped by reason.
    @discardableResult
    public func sync() throws(CloudError) -> [KeyValueExternalChange] {
        var changes: [KeyValueExternalChange] = []
        let account = try store.syncState(container: container, "kv_account")
        if let account, account != request.userRecordName {
            try store.resetKeyValues(container: container)
            let all = try cloud.fetchKeyValueChanges(since: nil, in: request)
            try store.applyKeyValues(container: container, all.items, token: all.token, clearPending: [], overwritePending: true)
            try store.setSyncState(container: container, "kv_account", request.userRecordName)
            return [KeyValueExternalChange(reason: .accountChange, items: all.items.filter { $0.value != nil })]
        }
        var pushed = Set<String>()
        let pending = try store.pendingKeyValues(container: container)
        if !pending.isEmpty {
            do {
                _ = try cloud.modifyKeyValues(pending, in: request)
                pushed = Set(pending.map(\.key))
            } catch where error.code == .quotaExceeded {
                // The cloud refused the batch: roll those keys back to the cloud's values.
                let everything = try cloud.fetchKeyValueChanges(since: nil, in: request)
                let keys = Set(pending.map(\.key))
                let cloudItems = everything.items.filter { keys.contains($0.key) }
                let missing = keys.subtracting(cloudItems.map(\.key)).map { KeyValueItem(key: $0, value: nil, modified: 0, deviceID: "") }
                try store.applyKeyValues(container: container, cloudItems + missing, token: nil, clearPending: keys, overwritePending: true)
                changes.append(KeyValueExternalChange(reason: .quotaViolationChange, items: cloudItems + missing))
            }
        }
        let tokenText = try store.syncState(container: container, "kv_token")
        let initial = tokenText == nil
        var fetched: KeyValueChanges
        do {
            fetched = try cloud.fetchKeyValueChanges(since: tokenText.map(ServerChangeToken.init(rawValue:)), in: request)
        } catch where error.code == .changeTokenExpired {
            // Another cloud: this is a different store now.
            try store.resetKeyValues(container: container)
            fetched = try cloud.fetchKeyValueChanges(since: nil, in: request)
            try store.applyKeyValues(container: container, fetched.items, token: fetched.token, clearPending: [], overwritePending: true)
            try store.setSyncState(container: container, "kv_account", request.userRecordName)
            return changes + [KeyValueExternalChange(reason: .accountChange, items: fetched.items.filter { $0.value != nil })]
        }
        try store.applyKeyValues(container: container, fetched.items, token: fetched.token, clearPending: pushed, overwritePending: false)
        if account == nil { try store.setSyncState(container: container, "kv_account", request.userRecordName) }
        let external = fetched.items.filter { $0.deviceID != request.deviceID && !(initial && $0.value == nil) }
        if !external.isEmpty {
            changes.append(KeyValueExternalChange(reason: initial ? .initialSyncChange : .serverChange, items: external))
        }
        return changes
    }
}
