import CloudSyncService
import CloudSyncCore
import Synchronization

/// A `CloudStorage` in plain Swift dictionaries: the second backend of the conformance suite.
///
/// It shows that every rule lives in `StorageBackedCloud` (nothing the suite checks is left to SQL)
/// and is a reference for what each storage primitive must do. A transaction works on the live
/// state and keeps a copy of the state at its start: a throwing body restores it (and a nested
/// one restores its own copy), and `recordImagesBeforeTransaction` reads it.
final class MemoryCloudStorage: CloudStorage, @unchecked Sendable {
    /// Nothing beyond the calls: the memory storage is for the conformance suite.
    var storageCapabilities: StorageCapabilities { StorageCapabilities() }

    struct RecordRow {
        var type: String
        var seq: Int64
        var changeTag: String?
        var deleted: Bool
        var fieldsText: String?
        var hasRefs: Bool
        var created: ChangeStamp
        var modified: ChangeStamp
    }

    struct ZoneState {
        var dbID: Int64
        var row: ZoneRow
        var dbSeq: Int64
        /// nil while live.
        var deletion: ZoneDeletionReason?
    }

    struct DatabaseState {
        var container: String
        var scope: DatabaseScope
        var owner: String
        var seq: Int64
    }

    struct KeyValueRow {
        var value: KeyValue?
        var seq: Int64
        var modified: Int64
        var deviceID: String
    }

    struct QueuedNotification {
        var id: Int64
        var device: DeviceAddress
        var coalesceKey: String?
        var payload: String
    }

    struct State {
        var accounts: [String: String] = [:]
        var profiles: [String: UserProfileRow] = [:]
        var databases: [Int64: DatabaseState] = [:]
        var zones: [Int64: ZoneState] = [:]
        var records: [Int64: [String: RecordRow]] = [:]
        /// zone id -> target -> sources
        var refs: [Int64: [String: Set<String>]] = [:]
        var schema: [String: [String: String]] = [:]
        var declaredSchemas: [String: String] = [:]
        var assets: [Int64: [String: (size: Int64, data: [UInt8])]] = [:]
        var keyValueStores: [String: KeyValueStoreRow] = [:]
        var keyValues: [Int64: [String: KeyValueRow]] = [:]
        var subscriptions: [Int64: [String: [String: SubscriptionRow]]] = [:]
        var devices: [DeviceAddress: Int64] = [:]
        var notifications: [QueuedNotification] = []
        var credentials: [String: CredentialRow] = [:]
        var administrators: [String: Set<String>] = [:]
        var usedSignatures: [String: Int64] = [:]
        var secrets: [String: String] = [:]
        var usage: [String: Int64] = [:]
        /// Owner's db -> zone name -> share (with its participants by userRecordName).
        var shares: [Int64: [String: (row: ShareRow, participants: [String: ShareParticipantRow])]] = [:]
        /// Shared db -> "owner/zone" -> row.
        var sharedZones: [Int64: [String: SharedZoneRow]] = [:]
        var nextID: Int64 = 1
    }

    let epoch = UInt64.random(in: 1...UInt64.max)
    let lock = Mutex(())
    var state = State()

    func read<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try run(body)
    }

    func write<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try run(body)
    }

    private func run<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        do {
            return try lock.withLock { _ in
                let transaction = MemoryCloudTransaction(storage: self, before: state)
                do {
                    return try body(transaction)
                } catch {
                    state = transaction.before
                    throw error
                }
            }
        } catch let error as CloudError {
            throw error
        } catch {
            throw CloudError(.internalError, "memory storage failed: \(error)")
        }
    }

    func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        PollingNotificationWaiter(interval: 0.05)
    }

    // MARK: Stores by name, so that a test can open the same store twice

    private static let stores = Mutex<(count: Int, byName: [String: MemoryCloudStorage])>((0, [:]))

    /// The memory storage as `CloudLocator` opens it: `memory:N` from `fresh()`.
    static let backend = CloudBackendRegistration(name: "memory", form: .url(prefixes: ["memory:"]), acceptedForms: nil) {
        locator, request in
        StorageBackedCloud(storage: try MemoryCloudStorage.named(locator.url), clock: request.clock)
    }

    /// The location of a new, empty store.
    static func fresh() -> String {
        stores.withLock {
            $0.count += 1
            let name = "memory:\($0.count)"
            $0.byName[name] = MemoryCloudStorage()
            return name
        }
    }

    /// The store at `location`.
    static func named(_ location: String) throws -> MemoryCloudStorage {
        guard let store = stores.withLock({ $0.byName[location] }) else {
            throw CloudError(.badDatabase, "no memory store \(location)")
        }
        return store
    }
}

/// The primitives of `MemoryCloudStorage`, over its live state.
final class MemoryCloudTransaction: CloudStorageTransaction {
    unowned let storage: MemoryCloudStorage
    /// The state when the transaction began.
    let before: MemoryCloudStorage.State

    init(storage: MemoryCloudStorage, before: MemoryCloudStorage.State) {
        self.storage = storage
        self.before = before
    }

    var state: MemoryCloudStorage.State {
        get { storage.state }
        _modify { yield &storage.state }
    }

    func nextID() -> Int64 {
        defer { state.nextID += 1 }
        return state.nextID
    }

    func nested<T>(_ body: () throws -> T) throws -> T {
        let saved = state
        do {
            return try body()
        } catch {
            state = saved
            throw error
        }
    }

    // MARK: Accounts

    func userRecordName(ofAccount name: String) throws -> String? { state.accounts[name] }

    func insertAccountIfAbsent(name: String, userRecordName: String, now: Int64) throws {
        if state.accounts[name] == nil { state.accounts[name] = userRecordName }
    }

    func userProfile(account: String) throws -> UserProfileRow? { state.profiles[account] }

    func putUserProfile(_ row: UserProfileRow) throws { state.profiles[row.account] = row }

    // MARK: Databases

    func findDatabase(container: String, scope: DatabaseScope, owner: String) throws -> DatabaseRow? {
        state.databases.first { $0.value.container == container && $0.value.scope == scope && $0.value.owner == owner }
            .map { DatabaseRow(id: $0.key, seq: $0.value.seq) }
    }

    func createDatabase(container: String, scope: DatabaseScope, owner: String, now: Int64) throws -> DatabaseRow {
        let id = nextID()
        state.databases[id] = .init(container: container, scope: scope, owner: owner, seq: 0)
        _ = try createZone(ZoneID.defaultZoneName, atomic: false, dbID: id, dbSeq: 0, now: now)
        return DatabaseRow(id: id, seq: 0)
    }

    func nextDatabaseSeq(_ dbID: Int64) throws -> Int64 {
        guard state.databases[dbID] != nil else { throw CloudError(.internalError, "database \(dbID) vanished") }
        state.databases[dbID]!.seq += 1
        return state.databases[dbID]!.seq
    }

    // MARK: Zones

    func findZone(_ name: String, dbID: Int64) throws -> ZoneRow? {
        state.zones.values.first { $0.dbID == dbID && $0.row.name == name && $0.deletion == nil }?.row
    }

    func deletedZoneReason(_ name: String, dbID: Int64) throws -> ZoneDeletionReason? {
        state.zones.values.filter { $0.dbID == dbID && $0.row.name == name && $0.deletion != nil }
            .max { $0.dbSeq < $1.dbSeq }?.deletion
    }

    func liveZones(dbID: Int64) throws -> [ZoneRow] {
        state.zones.values.filter { $0.dbID == dbID && $0.deletion == nil }.map(\.row).sorted {
            ($0.name != ZoneID.defaultZoneName ? 1 : 0, $0.name) < ($1.name != ZoneID.defaultZoneName ? 1 : 0, $1.name)
        }
    }

    func createZone(_ name: String, atomic: Bool, dbID: Int64, dbSeq: Int64, now: Int64) throws -> ZoneRow {
        let row = ZoneRow(id: nextID(), name: name, atomic: atomic, seq: 0, floorSeq: 0, recordCount: 0)
        state.zones[row.id] = .init(dbID: dbID, row: row, dbSeq: dbSeq, deletion: nil)
        return row
    }

    func deleteZone(_ zone: ZoneRow, dbID: Int64, purge: Bool, dbSeq: Int64) throws {
        state.records[zone.id] = nil
        state.refs[zone.id] = nil
        state.zones[zone.id]?.deletion = purge ? .purged : .deleted
        state.zones[zone.id]?.dbSeq = dbSeq
        state.zones[zone.id]?.row.recordCount = 0
    }

    func advanceZone(_ zone: ZoneRow, dbID: Int64, seq: Int64, dbSeq: Int64, countDelta: Int) throws {
        state.zones[zone.id]?.row.seq = seq
        state.zones[zone.id]?.dbSeq = dbSeq
        state.zones[zone.id]?.row.recordCount += countDelta
    }

    func zoneChanges(dbID: Int64, since: Int64, limit: Int) throws -> [ZoneChangeRow] {
        Array(state.zones.values
            .filter { $0.dbID == dbID && $0.dbSeq > since && $0.row.name != ZoneID.defaultZoneName }
            .sorted { $0.dbSeq < $1.dbSeq }
            .prefix(limit)
            .map { ZoneChangeRow(name: $0.row.name, deletion: $0.deletion, dbSeq: $0.dbSeq) })
    }

    // MARK: Records

    func stored(_ name: String, _ row: MemoryCloudStorage.RecordRow, zoneID: ZoneID) throws -> StoredRecord {
        let fields = try row.fieldsText.map { try RecordJSON.decodeFields(bytes: Array($0.utf8)) } ?? [:]
        let system = SystemFields(changeTag: row.changeTag ?? "", created: row.created, modified: row.modified)
        return StoredRecord(record: Record(recordID: RecordID(recordName: name, zoneID: zoneID), recordType: row.type,
                                           fields: fields, system: system),
                            seq: row.seq, deleted: row.deleted, hasRefs: row.hasRefs, fieldsText: row.fieldsText)
    }

    func loadRecord(_ name: String, zone: ZoneRow, dbID: Int64, zoneID: ZoneID) throws -> StoredRecord? {
        try state.records[zone.id]?[name].map { try stored(name, $0, zoneID: zoneID) }
    }

    func writeRecord(_ row: RecordWrite, zone: ZoneRow, dbID: Int64, ifAbsent: Bool) throws -> Bool {
        if ifAbsent, state.records[zone.id]?[row.name] != nil { return false }
        state.records[zone.id, default: [:]][row.name] = .init(
            type: row.type, seq: row.seq, changeTag: row.changeTag, deleted: false, fieldsText: row.fieldsText,
            hasRefs: row.hasRefs, created: row.created, modified: row.modified)
        return true
    }

    func tombstoneRecord(_ name: String, zone: ZoneRow, dbID: Int64, seq: Int64, stamp: ChangeStamp) throws {
        guard var row = state.records[zone.id]?[name] else { return }
        row.deleted = true
        row.seq = seq
        row.changeTag = nil
        row.fieldsText = nil
        row.hasRefs = false
        row.modified = stamp
        state.records[zone.id]?[name] = row
    }

    func removeReferences(from source: String, zone: ZoneRow, dbID: Int64) throws {
        guard let targets = state.refs[zone.id] else { return }
        for target in targets.keys { state.refs[zone.id]?[target]?.remove(source) }
    }

    func addReference(from source: String, to target: String, zone: ZoneRow, dbID: Int64) throws {
        state.refs[zone.id, default: [:]][target, default: []].insert(source)
    }

    func referenceSources(to target: String, zone: ZoneRow, dbID: Int64) throws -> [String] {
        (state.refs[zone.id]?[target] ?? []).sorted()
    }

    func recordChanges(zone: ZoneRow, dbID: Int64, zoneID: ZoneID, since: Int64, limit: Int,
                       holding known: (any KnownRecordVersions)?) throws -> (records: [StoredRecord], moreComing: Bool) {
        let rows = (state.records[zone.id] ?? [:]).filter { $0.value.seq > since }.sorted { $0.value.seq < $1.value.seq }
        return (try rows.prefix(limit).map { try stored($0.key, $0.value, zoneID: zoneID) }, rows.count > limit)
    }

    func scanRecords(ofType recordType: String, zone: ZoneRow, dbID: Int64, zoneID: ZoneID,
                     order: QueryScanOrder?, _ visit: (Record) throws -> Bool) throws {
        var records: [Record] = []
        for (name, row) in state.records[zone.id] ?? [:] where !row.deleted && row.type == recordType {
            records.append(try stored(name, row, zoneID: zoneID).record)
        }
        if let order {
            if let after = order.after { records.removeAll { order.compare(order.values(of: $0), after) <= 0 } }
            records.sort { order.compare(order.values(of: $0), order.values(of: $1)) < 0 }
        }
        for record in records { guard try visit(record) else { return } }
    }

    func recordImagesBeforeTransaction(_ names: Set<String>, zone: ZoneRow, dbID: Int64,
                                       zoneID: ZoneID) -> [String: NotificationRecordImage]? {
        var images: [String: NotificationRecordImage] = [:]
        for name in names {
            guard let row = before.records[zone.id]?[name], !row.deleted,
                  let record = try? stored(name, row, zoneID: zoneID).record else {
                images[name] = NotificationRecordImage(live: false, record: nil)
                continue
            }
            images[name] = NotificationRecordImage(live: true, record: record)
        }
        return images
    }

    // MARK: Schema

    func schemaKey(_ container: String, _ recordType: String) -> String { container + "\u{0}" + recordType }

    func schemaFields(container: String, recordType: String) throws -> [String: FieldTypeName] {
        (state.schema[schemaKey(container, recordType)] ?? [:]).compactMapValues { FieldTypeName($0) }
    }

    func addSchemaFieldIfAbsent(container: String, recordType: String, field: String, type: FieldTypeName) throws -> Bool {
        let key = schemaKey(container, recordType)
        guard state.schema[key]?[field] == nil else { return false }
        state.schema[key, default: [:]][field] = type.description
        return true
    }

    func schemaFieldType(container: String, recordType: String, field: String) throws -> String? {
        state.schema[schemaKey(container, recordType)]?[field]
    }

    func allSchemaFields(container: String) throws -> [String: [String: FieldTypeName]] {
        var all: [String: [String: FieldTypeName]] = [:]
        for (key, fields) in state.schema where key.hasPrefix(container + "\u{0}") {
            all[String(key.dropFirst(container.count + 1))] = fields.compactMapValues { FieldTypeName($0) }
        }
        return all
    }

    func removeSchemaFields(container: String) throws {
        state.schema = state.schema.filter { !$0.key.hasPrefix(container + "\u{0}") }
    }

    func declaredSchema(container: String) throws -> String? { state.declaredSchemas[container] }

    func setDeclaredSchema(_ text: String?, container: String) throws { state.declaredSchemas[container] = text }

    func databases(container: String) throws -> [DatabaseRow] {
        state.databases.filter { $0.value.container == container }.sorted { $0.key < $1.key }
            .map { DatabaseRow(id: $0.key, seq: $0.value.seq) }
    }

    // MARK: Assets

    func insertAssetIfAbsent(_ reference: AssetReference, data: [UInt8], dbID: Int64, now: Int64) throws {
        if state.assets[dbID]?[reference.checksum] == nil {
            state.assets[dbID, default: [:]][reference.checksum] = (reference.size, data)
        }
    }

    func assetData(checksum: String, dbID: Int64) throws -> [UInt8]? { state.assets[dbID]?[checksum]?.data }

    func assetSize(checksum: String, dbID: Int64) throws -> Int64? { state.assets[dbID]?[checksum]?.size }

    // MARK: Key-value stores

    func ensureKeyValueStore(container: String, owner: String) throws -> KeyValueStoreRow {
        let key = container + "\u{0}" + owner
        if let row = state.keyValueStores[key] { return row }
        let row = KeyValueStoreRow(id: nextID(), seq: 0)
        state.keyValueStores[key] = row
        return row
    }

    func keyValueSeq(storeID: Int64) throws -> Int64? {
        state.keyValueStores.values.first { $0.id == storeID }?.seq
    }

    func putKeyValue(_ key: String, _ value: KeyValue?, storeID: Int64, seq: Int64, now: Int64, deviceID: String) throws {
        state.keyValues[storeID, default: [:]][key] = .init(value: value, seq: seq, modified: now, deviceID: deviceID)
    }

    func keyValueUsage(storeID: Int64) throws -> (keys: Int64, bytes: Int64) {
        var keys: Int64 = 0, bytes: Int64 = 0
        for (key, row) in state.keyValues[storeID] ?? [:] {
            guard let value = row.value else { continue }
            keys += 1
            let text = Int64(value.storedText.utf8.count)
            bytes += Int64(key.utf8.count) + (value.typeName == "data" ? text * 3 / 4 : text)
        }
        return (keys, bytes)
    }

    func setKeyValueSeq(_ seq: Int64, storeID: Int64) throws {
        for (key, row) in state.keyValueStores where row.id == storeID { state.keyValueStores[key]?.seq = seq }
    }

    func keyValueChanges(storeID: Int64, since: Int64) throws -> [KeyValueItem] {
        (state.keyValues[storeID] ?? [:]).filter { $0.value.seq > since }.sorted { $0.value.seq < $1.value.seq }.map {
            KeyValueItem(key: $0.key, value: $0.value.value, modified: $0.value.modified, deviceID: $0.value.deviceID)
        }
    }

    // MARK: Subscriptions

    func subscriptionCreated(_ id: String, owner: String, dbID: Int64) throws -> Int64? {
        state.subscriptions[dbID]?[owner]?[id]?.created
    }

    func putSubscription(_ row: SubscriptionRow, dbID: Int64) throws {
        state.subscriptions[dbID, default: [:]][row.owner, default: [:]][row.id] = row
    }

    func subscriptions(owner: String, dbID: Int64) throws -> [SubscriptionRow] {
        (state.subscriptions[dbID]?[owner] ?? [:]).values.sorted { $0.id < $1.id }
    }

    func subscriptionsConcerning(zoneName: String, dbID: Int64) throws -> [SubscriptionRow] {
        (state.subscriptions[dbID] ?? [:]).values.flatMap(\.values)
            .filter { $0.kind == "database" || $0.zoneName == zoneName || ($0.kind == "query" && $0.zoneName == nil) }
            .sorted { ($0.owner, $0.id) < ($1.owner, $1.id) }
    }

    func hasSubscriptionsConcerning(zoneName: String, dbID: Int64) throws -> Bool {
        try !subscriptionsConcerning(zoneName: zoneName, dbID: dbID).isEmpty
    }

    func deleteSubscription(_ id: String, owner: String, dbID: Int64) throws {
        state.subscriptions[dbID]?[owner]?[id] = nil
    }

    // MARK: Devices and notification queues

    func registerDevice(_ device: DeviceAddress, now: Int64) throws { state.devices[device] = now }

    func trimDevices(container: String, owner: String, keeping: Int) throws {
        let mine = state.devices.filter { $0.key.container == container && $0.key.userRecordName == owner }
            .sorted { ($0.value, $1.key.deviceID) > ($1.value, $0.key.deviceID) }
        for (device, _) in mine.dropFirst(keeping) { try unregisterDevice(device) }
    }

    func unregisterDevice(_ device: DeviceAddress) throws {
        state.devices.removeValue(forKey: device)
        state.notifications.removeAll { $0.device == device }
    }

    func registeredDevices(container: String, owner: String) throws -> [String] {
        state.devices.keys.filter { $0.container == container && $0.userRecordName == owner }.map(\.deviceID).sorted()
    }

    func enqueueNotification(to device: DeviceAddress, payload: String, coalesceKey: String?, now: Int64) throws -> Bool {
        if let coalesceKey, state.notifications.contains(where: { $0.device == device && $0.coalesceKey == coalesceKey }) {
            return false
        }
        state.notifications.append(.init(id: nextID(), device: device, coalesceKey: coalesceKey, payload: payload))
        return true
    }

    func takeNotifications(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)] {
        let taken = state.notifications.filter { $0.device == device }.prefix(limit)
        let ids = Set(taken.map(\.id))
        state.notifications.removeAll { ids.contains($0.id) }
        return taken.map { (id: $0.id, payload: $0.payload) }
    }

    func peekNotifications(for device: DeviceAddress, limit: Int) throws -> [(id: Int64, payload: String)] {
        state.notifications.filter { $0.device == device }.prefix(limit).map { (id: $0.id, payload: $0.payload) }
    }

    func deleteNotification(_ id: Int64, of device: DeviceAddress) throws -> Bool {
        guard let index = state.notifications.firstIndex(where: { $0.id == id && $0.device == device }) else { return false }
        state.notifications.remove(at: index)
        return true
    }

    func wakeListeners(_ devices: Set<DeviceAddress>) {}

    // MARK: Credentials

    func insertCredential(_ row: CredentialRow) throws { state.credentials[row.id] = row }

    func credential(id: String) throws -> CredentialRow? { state.credentials[id] }

    func credential(secret: String, kind: CredentialKind) throws -> CredentialRow? {
        state.credentials.values.first { $0.kind == kind && $0.secret == secret }
    }

    func allCredentials() throws -> [CredentialRow] {
        state.credentials.values.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }

    func revokeCredential(id: String, at time: Int64) throws -> Bool {
        guard state.credentials[id] != nil, state.credentials[id]?.revoked == nil else { return false }
        state.credentials[id]?.revoked = time
        return true
    }

    func setCredentialLastUsed(id: String, at time: Int64) throws { state.credentials[id]?.lastUsed = time }

    func containerAdministrators(container: String) throws -> [String] { (state.administrators[container] ?? []).sorted() }

    func addContainerAdministrator(_ account: String, container: String, now: Int64) throws -> Bool {
        state.administrators[container, default: []].insert(account).inserted
    }

    func removeContainerAdministrator(_ account: String, container: String) throws -> Bool {
        state.administrators[container]?.remove(account) != nil
    }

    func usage(payer: String) throws -> Int64 { state.usage[payer] ?? 0 }

    func addUsage(_ delta: Int64, payer: String, needTotal: Bool) throws -> Int64? {
        state.usage[payer, default: 0] += delta
        return state.usage[payer] ?? 0
    }

    func rememberSignature(_ hash: String, expires: Int64, now: Int64) throws -> Bool {
        state.usedSignatures = state.usedSignatures.filter { $0.value >= now }
        guard state.usedSignatures[hash] == nil else { return false }
        state.usedSignatures[hash] = expires
        return true
    }

    func keptSecret(_ key: String, candidate: String) throws -> String {
        if let kept = state.secrets[key] { return kept }
        state.secrets[key] = candidate
        return candidate
    }
}
