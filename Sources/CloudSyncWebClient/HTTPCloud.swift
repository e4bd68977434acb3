import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol
import Synchronization

/// The cloud of a `cloudsync serve` on the network: every `CloudService` call is one (or, for
/// batches over the protocol's 200-operation limit, several) CloudKit Web Services request over
/// libcurl, on the process's one reused connection (`CurlSession.shared`).
///
/// Failures map to the service's codes: an unreachable server (refused, unresolvable, timed
/// out) is `networkUnavailable`; 503 and 429 keep their `Retry-After` as `retryAfter`
/// (`serviceUnavailable`, `requestRateLimited`), so `RetryingCloud` waits and retries; 401 is
/// `notAuthenticated` and 403 `permissionFailure` (both exit 77). A connection the server closes
/// before any reply (at its connection limit) is `serviceUnavailable` too, retried the same way,
/// when the request was not sent in full or its endpoint is idempotent; a save (or poll) sent in
/// full is sent again as after a balancer's 502 (below); any other write is `networkFailure`.
///
/// Before any of that, a request no `serve` answered (a refused connection, a load balancer's
/// own 502/503/504) is sent again per `configuration.transportRetry` (`exchange`), and a save
/// repeated so is reconciled with its own first try (`HTTPCloud+RepeatedSave`).
public final class HTTPCloud: CloudService, Sendable {
    public let configuration: HTTPCloudConfiguration
    let session: CurlSession
    /// Login name of each userRecordName met through `account(named:)`: whose token to send.
    let accounts = Mutex<[String: String]>([:])
    /// The login name of each (base URL, userRecordName) signed in by any HTTPCloud of the process.
    static let signedIn = Mutex<[String: String]>([:])
    /// Saves and deletes a node may have applied without a reply reaching this client (see
    /// `modifyRecords`), by `uncertainKeys`.
    let uncertain = Mutex<Set<String>>([])
    /// Notifications a long poll read for a device before `takeNotifications` asked.
    let pending = Mutex<[DeviceAddress: [CloudNotification]]>([:])
    /// The highest `X-CloudSync-Position` a reply of each server (base URL) carried in this
    /// process, sent back with every request to it, so that a server with read replicas never
    /// reads for this client from a replica behind what it has seen (every HTTPCloud of a script
    /// or REPL session is one client).
    static let positions = Mutex<[String: UInt64]>([:])

    public init(configuration: HTTPCloudConfiguration, session: CurlSession = .shared) {
        self.configuration = configuration
        self.session = session
    }

    // MARK: Accounts

    func accountName(_ userRecordName: String) throws(CloudError) -> String {
        if let name = accounts.withLock({ $0[userRecordName] }) { return name }
        // Another HTTPCloud of this process (a reopened cloud) may have signed the account in.
        guard let name = Self.signedIn.withLock({ $0[configuration.baseURL + " " + userRecordName] }) else {
            throw CloudError(.notAuthenticated, "no account with userRecordName \(userRecordName) has signed in through this client")
        }
        return name
    }


    public func account(named name: String) throws(CloudError) -> Account {
        let reply = try send(.usersCurrent, container: configuration.defaultContainer, scope: .private, account: name, device: nil,
                             body: Array("{}".utf8))
        let json = try Self.parse(reply)
        guard let user = json["userRecordName"]?.stringValue else {
            throw RecordsCodec.malformedReply("users/current has no userRecordName")
        }
        if let actual = json["accountName"]?.stringValue, actual != name {
            throw CloudError(.permissionFailure, "the token is for account \(NameRules.quoted(actual)), not \(NameRules.quoted(name))")
        }
        accounts.withLock { $0[user] = name }
        Self.signedIn.withLock { $0[configuration.baseURL + " " + user] = name }
        return Account(name: name, userRecordName: user)
    }

    // MARK: Zones

    public func saveZones(_ zones: [ZoneSpec], in database: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        var out: [ZoneInfo] = []
        for chunk in zones.chunked(RecordsCodec.maxOperations) {
            let reply = try call(.zonesModify, ZonesCodec.encodeModify(chunk.map { .create($0) }, owner: database.zoneOwner), in: database)
            out += try ZonesCodec.decodeZones(reply)
        }
        return out
    }

    public func fetchAllZones(in database: DatabaseRequest) throws(CloudError) -> [ZoneInfo] {
        try ZonesCodec.decodeZones(try call(.zonesList, .object([]), in: database))
    }

    public func deleteZones(_ names: [String], purge: Bool, in database: DatabaseRequest) throws(CloudError) {
        for chunk in names.chunked(RecordsCodec.maxOperations) {
            _ = try call(.zonesModify, ZonesCodec.encodeModify(chunk.map { .delete($0, purge: purge) }, owner: database.zoneOwner),
                         in: database)
        }
    }

    // MARK: Records

    /// A call of up to 200 operations (the protocol's limit) is one request, saves and deletes
    /// together, so an atomic zone's call is all or nothing as on the service; a longer one goes
    /// as several requests of 200, saves first, each all-or-nothing per atomic zone on its own.
    public func modifyRecords(_ request: ModifyRequest, in database: DatabaseRequest) throws(CloudError) -> ModifyResult {
        // The service's own bound, checked before the batch is split (split, it would pass).
        let total = request.saves.count + request.deletes.count
        guard total <= CloudLimits.maxRecordsPerModify else {
            throw CloudError(.limitExceeded,
                             "a modify call holds at most \(CloudLimits.maxRecordsPerModify) records, got \(total); split the batch")
        }
        var result = ModifyResult()
        var parts: [ModifyRequest] = []
        var saves = request.saves[...], deletes = request.deletes[...]
        while !saves.isEmpty || !deletes.isEmpty {
            let partSaves = saves.prefix(RecordsCodec.maxOperations)
            let partDeletes = deletes.prefix(RecordsCodec.maxOperations - partSaves.count)
            saves = saves.dropFirst(partSaves.count)
            deletes = deletes.dropFirst(partDeletes.count)
            parts.append(ModifyRequest(saves: Array(partSaves), deletes: Array(partDeletes), policy: request.policy))
        }
        if parts.isEmpty { parts = [request] }
        for part in parts {
            // A save a node may have applied without this client learning it (a 502, then a
            // failure such as serve's own 503, which RetryingCloud retries as a new call) stays
            // "uncertain" until a reply about it is read: that reply is reconciled too.
            let keys = Self.uncertainKeys(part, in: database)
            var repeated = uncertain.withLock { !$0.isDisjoint(with: keys) }
            let sent: HTTPReply
            do {
                sent = try exchange(.recordsModify, container: database.container, environment: database.environment,
                                    scope: database.scope, account: try accountName(database.userRecordName),
                                    device: database.deviceID, body: RecordsCodec.encodeModifyBytes(part), repeated: &repeated)
            } catch {
                if repeated { uncertain.withLock { $0.formUnion(keys) } }
                throw error
            }
            var reply = try RecordsCodec.decodeModifyReply(bytes: sent.body)
            if repeated {
                reply = Self.reconcileRepeated(reply, of: part, in: database)
                uncertain.withLock { $0.subtract(keys) }
            }
            result.saved += reply.saved
            result.deleted += reply.deleted
            for (id, error) in reply.errors { result.errors[requested(id, in: part) ?? id] = error }
        }
        return result
    }

    /// The ID the caller used for a record the server names (owners may be spelled differently).
    func requested(_ id: RecordID, in request: ModifyRequest) -> RecordID? {
        let key = RecordsCodec.key(id)
        return request.saves.first { RecordsCodec.key($0.recordID) == key }?.recordID
            ?? request.deletes.first { RecordsCodec.key($0) == key }
    }

    public func fetchRecords(_ ids: [RecordID], in database: DatabaseRequest) throws(CloudError) -> [RecordID: Result<Record, CloudError>] {
        var out: [RecordID: Result<Record, CloudError>] = [:]
        for chunk in ids.chunked(RecordsCodec.maxOperations) {
            let reply = try call(.recordsLookup, RecordsCodec.encodeLookup(chunk), in: database)
            out.merge(try RecordsCodec.decodeLookupReply(reply, ids: chunk)) { _, new in new }
        }
        return out
    }

    public func queryRecords(_ query: RecordQuery, in database: DatabaseRequest) throws(CloudError) -> QueryPage {
        try RecordsCodec.decodeQueryReply(try call(.recordsQuery, RecordsCodec.encodeQuery(query, owner: database.zoneOwner), in: database))
    }

    public func fetchDatabaseChanges(since token: ServerChangeToken?, limit: Int, in database: DatabaseRequest) throws(CloudError) -> DatabaseChanges {
        try ZonesCodec.decodeChangesReply(try call(.changesDatabase, ZonesCodec.encodeChangesRequest(since: token, limit: limit), in: database))
    }

    /// The server sends every record whole (`known` is not sent).
    public func fetchZoneChanges(_ zoneName: String, since token: ServerChangeToken?, limit: Int,
                                 holding known: (any KnownRecordVersions)?, in database: DatabaseRequest) throws(CloudError) -> ZoneChanges {
        let body = RecordsCodec.encodeChanges(zoneID: database.zoneID(zoneName), since: token, limit: limit)
        let reply = try send(.recordsChanges, container: database.container, environment: database.environment,
                             scope: database.scope, account: try accountName(database.userRecordName),
                             device: database.deviceID, body: Array(body.serialized().utf8))
        // One pass, keeping each record's fields text for the device cache; anything unusual
        // takes the general path. Fields with an asset's `downloadURL` (a grant that expires)
        // are not kept as text: the cache encodes them again without it.
        if let page = RecordJSON.decodeChangesPage(bytes: reply.body, defaultZone: RecordsCodec.defaultZone),
           let token = page.syncToken {
            return ZoneChanges(changed: page.changed,
                               deleted: page.deleted.map { RecordDeletion(recordID: $0.recordID, recordType: $0.recordType) },
                               token: ServerChangeToken(rawValue: PositionedToken.split(token).token), moreComing: page.moreComing ?? false,
                               encodedFields: page.fieldsTexts.map { $0.contains("\"downloadURL\"") ? nil : $0 })
        }
        return try RecordsCodec.decodeChangesReply(try Self.parse(reply))
    }

    // MARK: Assets

    public func uploadAssets(_ contents: [[UInt8]], in database: DatabaseRequest) throws(CloudError) -> [AssetReference] {
        var out: [AssetReference] = []
        for content in contents {
            let reply = try send(.assetsData, container: database.container, environment: database.environment, scope: database.scope,
                                 account: try accountName(database.userRecordName), device: database.deviceID, body: content,
                                 contentType: "application/octet-stream",
                                 sharedOwner: database.scope == .shared ? database.sharedOwner : nil)
            let json = try Self.parse(reply)
            guard let checksum = json["singleFile"]?["fileChecksum"]?.stringValue, let size = json["singleFile"]?["size"]?.int64Value else {
                throw RecordsCodec.malformedReply("the upload reply has no singleFile")
            }
            out.append(AssetReference(checksum: checksum, size: size))
        }
        return out
    }

    public func fetchAsset(_ reference: AssetReference, of record: RecordID?, in database: DatabaseRequest) throws(CloudError) -> [UInt8] {
        var query = "?fileChecksum=\(PercentEncoding.query(reference.checksum))&size=\(reference.size)"
        if database.scope == .shared, let record {
            query += "&zoneName=\(PercentEncoding.query(record.zoneID.zoneName))&recordName=\(PercentEncoding.query(record.recordName))"
        }
        return try send(.assetsDownload, container: database.container, environment: database.environment, scope: database.scope,
                        account: try accountName(database.userRecordName), device: database.deviceID, body: [], method: "GET",
                        query: query, sharedOwner: database.scope == .shared ? database.sharedOwner : nil).body
    }

    // MARK: Key-value store

    public func modifyKeyValues(_ writes: [KeyValueWrite], in database: DatabaseRequest) throws(CloudError) -> [KeyValueItem] {
        var out: [KeyValueItem] = []
        // One request: the store's writes are all or nothing. The server bounds the count.
        out += try KeyValueCodec.decodeItems(try call(.kvModify, KeyValueCodec.encodeModify(writes), in: database))
        return out
    }

    public func fetchKeyValueChanges(since token: ServerChangeToken?, in database: DatabaseRequest) throws(CloudError) -> KeyValueChanges {
        var body: [(String, JSONValue)] = []
        if let token { body.append(("syncToken", .string(token.rawValue))) }
        let reply = try call(.kvChanges, .object(body), in: database)
        guard let next = try JSONFields.token(reply) else { throw RecordsCodec.malformedReply("kv/changes has no syncToken") }
        return KeyValueChanges(items: try KeyValueCodec.decodeItems(reply), token: next)
    }

    // MARK: Subscriptions and notifications

    public func saveSubscriptions(_ subscriptions: [Subscription], in database: DatabaseRequest) throws(CloudError) -> [Subscription] {
        // A predicate too deep to travel is refused here with the service's own words (sent, the
        // server's parser would stop at its bound without knowing the depth).
        for subscription in subscriptions {
            if case .query(let query) = subscription.kind { try query.predicate.validateNesting() }
        }
        let body = SubscriptionsCodec.encodeModify(saves: subscriptions, deletes: [], owner: database.zoneOwner)
        return try SubscriptionsCodec.decodeList(try call(.subscriptionsModify, body, in: database),
                                                 sharedOwner: database.scope == .shared)
    }

    public func fetchAllSubscriptions(in database: DatabaseRequest) throws(CloudError) -> [Subscription] {
        try SubscriptionsCodec.decodeList(try call(.subscriptionsList, .object([]), in: database),
                                          sharedOwner: database.scope == .shared)
    }

    public func deleteSubscriptions(_ ids: [String], in database: DatabaseRequest) throws(CloudError) {
        _ = try call(.subscriptionsModify, SubscriptionsCodec.encodeModify(saves: [], deletes: ids, owner: database.zoneOwner), in: database)
    }

    func deviceRequest(_ device: DeviceAddress) -> DatabaseRequest {
        DatabaseRequest(container: device.container, scope: .private, userRecordName: device.userRecordName, deviceID: device.deviceID)
    }

    public func registerDevice(_ device: DeviceAddress) throws(CloudError) {
        let body = JSONValue.object([("apnsEnvironment", .string(configuration.environment.rawValue)),
                                     ("apnsToken", .string(NotificationsCodec.apnsToken(forDevice: device.deviceID)))])
        _ = try call(.tokensRegister, body, in: deviceRequest(device))
    }

    public func unregisterDevice(_ device: DeviceAddress) throws(CloudError) {
        let body = JSONValue.object([("apnsToken", .string(NotificationsCodec.apnsToken(forDevice: device.deviceID)))])
        _ = try call(.tokensUnregister, body, in: deviceRequest(device))
        pending.withLock { $0[device] = nil }
    }

    public func takeNotifications(for device: DeviceAddress, limit: Int) throws(CloudError) -> [CloudNotification] {
        guard (1...NotificationLimits.maxPerRead).contains(limit) else {
            throw CloudError(.invalidArguments, "a notification read takes 1 to \(NotificationLimits.maxPerRead), not \(limit)")
        }
        let buffered: [CloudNotification] = pending.withLock { queue in
            let head = Array((queue[device] ?? []).prefix(limit))
            queue[device] = Array((queue[device] ?? []).dropFirst(head.count))
            return head
        }
        guard buffered.count < limit else { return buffered }
        do {
            return buffered + (try poll(device, timeout: 0, limit: limit - buffered.count))
        } catch {
            // What the waiter already read (and the server acknowledged) is never dropped.
            if buffered.isEmpty { throw error }
            return buffered
        }
    }

    /// One `notifications/poll`, held by the server up to `timeout` seconds (on `connection`:
    /// a waiter polls on a connection of its own, so a held poll never delays other calls).
    func poll(_ device: DeviceAddress, timeout: Double, limit: Int, on connection: CurlSession? = nil) throws(CloudError) -> [CloudNotification] {
        let body = NotificationsCodec.encodePoll(apnsToken: NotificationsCodec.apnsToken(forDevice: device.deviceID), timeout: timeout,
                                                 limit: limit)
        return try NotificationsCodec.decodeNotifications(try call(.notificationsPoll, body, in: deviceRequest(device),
                                                                   extraTimeout: timeout, on: connection))
    }

    /// A waiter that long-polls the server: what the poll reads is kept for the next
    /// `takeNotifications` of this client (notifications are acknowledged when the poll answers).
    /// The poll reads at most one (`LongPollWaiter.pollLimit`): a reader of one (`subscribe
    /// listen --once`) then prints what was acknowledged, and the others stay on the server for
    /// the next read (issue 26: a poll that read all of them lost all but the printed one).
    public func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        _ = try accountName(device.userRecordName)
        return LongPollWaiter(cloud: self, device: device)
    }

    func buffer(_ notifications: [CloudNotification], for device: DeviceAddress) {
        guard !notifications.isEmpty else { return }
        pending.withLock { $0[device, default: []] += notifications }
    }
}

/// Sleeps in a `notifications/poll` held by the server (no polling from the client's side).
final class LongPollWaiter: NotificationWaiter {
    let cloud: HTTPCloud
    let device: DeviceAddress
    /// The waiter's own connection.
    let connection = CurlSession()
    /// Notifications a wait reads (and so acknowledges): one, the least any reader asks for;
    /// `takeNotifications` reads the rest of a batch after it.
    static let pollLimit = 1
    var mechanism: String { "long poll of \(cloud.configuration.baseURL)" }

    init(cloud: HTTPCloud, device: DeviceAddress) {
        self.cloud = cloud
        self.device = device
    }

    func wait(timeout: Double) -> Bool {
        let seconds = min(max(timeout, 0), NotificationsCodec.maxPollSeconds)
        let start = NotificationClock.now()
        do {
            let got = try cloud.poll(device, timeout: seconds, limit: Self.pollLimit, on: connection)
            cloud.buffer(got, for: device)
            return !got.isEmpty
        } catch {
            // The server is away: sleep out the rest of the wait rather than spin, then let the
            // listener's next read report the error.
            NotificationClock.sleep(max(0, min(1, seconds - (NotificationClock.now() - start))))
            return true
        }
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}

/// Percent-encoding of query values (RFC 3986 unreserved characters pass).
enum PercentEncoding {
    static func query(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || scalar == "-" || scalar == "." || scalar == "_" || scalar == "~" {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
