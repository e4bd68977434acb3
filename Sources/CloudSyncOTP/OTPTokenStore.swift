import CloudSyncCore
import CloudSyncCrypto
import CloudSyncDevice
import Synchronization

/// A token as the local store keeps it: its record name and the token.
public struct StoredToken: Sendable, Hashable {
    /// The `OTPToken` record holding it.
    public var recordName: String
    /// The token.
    public var token: OTPToken

    /// A stored token.
    public init(recordName: String, token: OTPToken) {
        self.recordName = recordName
        self.token = token
    }
}

/// The tokens of one device: `OTPToken` records in the local store's zone (what
/// NSPersistentCloudKitContainer syncs), written through persistent history so that sync
/// pushes them when it is on. Reads never touch the cloud.
public struct OTPTokenStore {
    /// The device's store.
    public let store: DeviceStore
    /// The container of the invocation.
    public let container: String
    /// The device name recorded in history.
    public let device: String
    /// The zone tokens live in.
    public static let zoneName = LocalStoreDefaults.zoneName
    /// How many lookups (`find`) this process has made: the work a command does, which tests
    /// count (`otp code QUERY` reads and matches the label index once).
    public static let finds = Atomic<Int>(0)

    /// The tokens of `container` in `store`, written as `device`.
    public init(store: DeviceStore, container: String, device: String) {
        self.store = store
        self.container = container
        self.device = device
    }

    /// Every record of the type, decoded only as far as the labels (cheap lookups).
    public func labelled() throws(CloudError) -> [(record: LocalRecord, labels: OTPQuery.Labels)] {
        try store.localRecords(container: container, type: OTPRecordFields.recordType, zone: OTPTokenStore.zoneName)
            .map { ($0, OTPRecordFields.labels($0.fields)) }
    }

    /// Every token, in name order; a record that does not decode is reported through `damaged`.
    public func all(damaged: (String, OTPError) -> Void = { _, _ in }) throws(CloudError) -> [StoredToken] {
        var out: [StoredToken] = []
        for record in try store.localRecords(container: container, type: OTPRecordFields.recordType, zone: OTPTokenStore.zoneName) {
            do {
                out.append(StoredToken(recordName: record.recordName, token: try OTPRecordFields.token(record.fields)))
            } catch {
                damaged(record.recordName, error)
            }
        }
        return out.sorted { ($0.token.name.lowercased(), $0.recordName) < ($1.token.name.lowercased(), $1.recordName) }
    }

    /// The token `query` means (see `OTPQuery`), found through the label index.
    public func find(_ query: String) throws(CloudError) -> OTPQueryResult<OTPLabelIndex.Entry> {
        OTPTokenStore.finds.add(1, ordering: .relaxed)
        if let result = try matchLabelIndex(query) { return result }
        // A damaged index: rebuilt from the records.
        try dropLabelIndex()
        return try matchLabelIndex(query) ?? .none
    }

    /// The token of a record; nil when there is no such token record.
    public func token(recordName: String) throws(CloudError) -> Result<StoredToken, OTPError>? {
        guard let record = try store.localRecord(container: container, zone: OTPTokenStore.zoneName, name: recordName),
              record.recordType == OTPRecordFields.recordType else { return nil }
        do {
            return .success(StoredToken(recordName: recordName, token: try OTPRecordFields.token(record.fields)))
        } catch {
            return .failure(error)
        }
    }

    /// Adds a token under a new random record name. Its sensitive fields are marked encrypted
    /// first, so they never reach the cloud in plaintext.
    @discardableResult
    public func add(_ token: OTPToken, now: Int64) throws(CloudError) -> StoredToken {
        try markEncrypted()
        let name = OTPTokenStore.newRecordName()
        try store.put(container: container, zone: OTPTokenStore.zoneName, name: name, type: OTPRecordFields.recordType,
                      fields: OTPRecordFields.fields(token), device: device, now: now)
        return StoredToken(recordName: name, token: token)
    }

    /// Writes the fields of a token that changed since `old`.
    public func update(_ stored: StoredToken, from old: OTPToken, now: Int64) throws(CloudError) {
        let new = OTPRecordFields.fields(stored.token)
        let previous = OTPRecordFields.fields(old)
        let changed = new.filter { previous[$0.key] != $0.value }
        guard !changed.isEmpty else { return }
        try markEncrypted()
        try store.put(container: container, zone: OTPTokenStore.zoneName, name: stored.recordName, type: OTPRecordFields.recordType,
                      fields: changed, device: device, now: now)
    }

    /// Removes a token; false when it was not there.
    @discardableResult
    public func remove(recordName: String, now: Int64) throws(CloudError) -> Bool {
        try store.deleteLocal(container: container, zone: OTPTokenStore.zoneName, name: recordName, device: device, now: now) != nil
    }

    /// Marks the sensitive fields encrypted (idempotent).
    public func markEncrypted() throws(CloudError) {
        try EncryptionMarks.add(OTPRecordFields.encryptedFields, recordType: OTPRecordFields.recordType, store: store,
                                container: container)
    }

    /// `otp-` and 16 random hex digits.
    static func newRecordName() -> String {
        "otp-" + Hex.encode(SecureRandom.bytes(8))
    }
}

extension OTPQueryResult {
    /// The same result over other items.
    public func mapItems<Other>(_ transform: (Item) -> Other) -> OTPQueryResult<Other> {
        switch self {
        case .match(let item): .match(transform(item))
        case .none: .none
        case .ambiguous(let items): .ambiguous(items.map(transform))
        }
    }
}
