import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// One authenticated request being answered: decodes the body, calls the service, encodes the
/// reply. Every failure is a thrown CloudError that the handler turns into its status and body.
struct WebServicesCall {
    /// The cloud that answers: the server's, or (a read-only call under `ReplicaRouter`) a replica's.
    var service: any CloudService
    let path: WebServicesPath
    let request: WebServicesRequest
    let database: DatabaseRequest
    let account: Account
    /// Who the credential says is calling (its account and role).
    let caller: Caller
    let uuid: String
    /// Signs the asset URLs handed out, when the server has a store secret.
    var grants: AssetGrants? = nil
    /// The longest a `notifications/poll` is held (`WebServicesHandler.maxPollSeconds`).
    var maxPollSeconds = NotificationsCodec.maxPollSeconds

    func answer() throws(CloudError) -> WebServicesResponse {
        switch path.endpoint {
        case .assetsData: return try uploadData()
        case .assetsDownload: return try download()
        case .recordsChanges: return try changes(try body())
        case .recordsModify: return try modify(try body())
        default: return json(try reply(to: try body()))
        }
    }

    /// The JSON body; an empty body is `{}` (GET requests and Apple's bodiless POSTs). A key
    /// repeated in one object is refused (BAD_REQUEST) rather than read as its last value.
    func body() throws(CloudError) -> JSONValue {
        if request.body.isEmpty { return .object([]) }
        do {
            return try JSONValue.parse(bytes: request.body, duplicateKeys: .refused)
        } catch {
            throw CloudError(.invalidArguments, "malformed JSON at byte offset \(error.offset): \(error.message)")
        }
    }

    func json(_ value: JSONValue) -> WebServicesResponse {
        WebServicesResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(value.serialized().utf8))
    }

    /// `records/changes`, its reply written as bytes with the stored fields copied in (the
    /// largest replies: a page of up to 10,000 records); a page with assets goes through JSON,
    /// to give each asset its `downloadURL`.
    func changes(_ body: JSONValue) throws(CloudError) -> WebServicesResponse {
        let database = addressed(by: body)
        let (zoneID, token, limit, keys) = try RecordsCodec.decodeChanges(body)
        let changes = try service.fetchZoneChanges(zoneID.zoneName, since: token, limit: limit, in: database)
        if changes.changed.contains(where: Self.holdsAsset) {
            return json(try withDownloadURLs(RecordsCodec.encodeChangesReply(changes, zoneID: database.zoneID(zoneID.zoneName),
                                                                             desiredKeys: keys)))
        }
        return WebServicesResponse(status: 200, headers: [("Content-Type", "application/json")],
                                   body: RecordsCodec.encodeChangesReplyBytes(changes, zoneID: database.zoneID(zoneID.zoneName),
                                                                              desiredKeys: keys))
    }

    /// `records/modify`, its reply written as bytes.
    func modify(_ body: JSONValue) throws(CloudError) -> WebServicesResponse {
        let database = addressed(by: body)
        let (modify, keys) = try RecordsCodec.decodeModify(body)
        let result = try service.modifyRecords(modify, in: database)
        return WebServicesResponse(status: 200, headers: [("Content-Type", "application/json")],
                                   body: RecordsCodec.encodeModifyReplyBytes(result, desiredKeys: keys, uuid: uuid))
    }

    /// The database a body addresses: in the shared database, a body's zoneID names the owner
    /// of the shared zone (unless the X-CloudSync-Shared-Owner header did).
    func addressed(by body: JSONValue) -> DatabaseRequest {
        path.scope == .shared && database.sharedOwner == nil
            ? database.owned(by: (try? JSONFields.zoneID(body))??.ownerRecordName ?? "") : database
    }

    func reply(to body: JSONValue) throws(CloudError) -> JSONValue {
        let database = addressed(by: body)
        let owner = database.zoneOwner
        switch path.endpoint {
        case .recordsModify:
            let (modify, keys) = try RecordsCodec.decodeModify(body)
            let result = try service.modifyRecords(modify, in: database)
            return RecordsCodec.encodeModifyReply(result, desiredKeys: keys, uuid: uuid)
        case .recordsLookup:
            let (ids, keys) = try RecordsCodec.decodeLookup(body)
            let results = try service.fetchRecords(ids, in: database)
            return try withDownloadURLs(RecordsCodec.encodeLookupReply(ids, normalized(results, ids), desiredKeys: keys, uuid: uuid))
        case .recordsQuery:
            let (query, keys) = try RecordsCodec.decodeQuery(body)
            return try withDownloadURLs(RecordsCodec.encodeQueryReply(try service.queryRecords(query, in: database), desiredKeys: keys))
        case .recordsChanges:
            let (zoneID, token, limit, keys) = try RecordsCodec.decodeChanges(body)
            let changes = try service.fetchZoneChanges(zoneID.zoneName, since: token, limit: limit, in: database)
            return try withDownloadURLs(RecordsCodec.encodeChangesReply(changes, zoneID: database.zoneID(zoneID.zoneName), desiredKeys: keys))
        case .zonesList:
            return ZonesCodec.encodeZones(try service.fetchAllZones(in: database))
        case .zonesLookup:
            let names = try ZonesCodec.decodeLookup(body)
            return ZonesCodec.encodeLookupReply(names, live: try service.fetchAllZones(in: database), owner: owner, uuid: uuid)
        case .zonesModify:
            return try modifyZones(ZonesCodec.decodeModify(body))
        case .zonesChanges, .changesDatabase:
            let (token, limit) = try ZonesCodec.decodeChangesRequest(body)
            return ZonesCodec.encodeChangesReply(try service.fetchDatabaseChanges(since: token, limit: limit, in: database))
        case .subscriptionsList:
            return SubscriptionsCodec.encodeList(try service.fetchAllSubscriptions(in: database), owner: owner)
        case .subscriptionsLookup:
            let ids = try SubscriptionsCodec.decodeLookup(body)
            return SubscriptionsCodec.encodeLookupReply(ids, live: try service.fetchAllSubscriptions(in: database), owner: owner, uuid: uuid)
        case .subscriptionsModify:
            let (saves, deletes) = try SubscriptionsCodec.decodeModify(body, sharedOwner: path.scope == .shared)
            var out: [JSONValue] = []
            if !saves.isEmpty {
                out += try service.saveSubscriptions(saves, in: database).map { SubscriptionsCodec.encode($0, owner: owner) }
            }
            if !deletes.isEmpty {
                try service.deleteSubscriptions(deletes, in: database)
                out += deletes.map { .object([("subscriptionID", .string($0)), ("deleted", .bool(true))]) }
            }
            return .object([("subscriptions", .array(out))])
        case .usersCurrent:
            return .object([("userRecordName", .string(account.userRecordName)), ("accountName", .string(account.name))])
        case .usersCaller, .usersCallerModify, .usersLookupID, .usersLookupAccount:
            return try usersReply(to: body)
        case .assetsUpload:
            return try uploadTokens(body)
        case .tokensCreate:
            _ = try JSONFields.object(body, "the request")
            let device = try JSONFields.string(body, "deviceID") ?? database.deviceID
            try service.registerDevice(DeviceAddress(container: path.container, userRecordName: account.userRecordName, deviceID: device))
            let token = NotificationsCodec.apnsToken(forDevice: device)
            var poll = path
            poll.endpoint = .notificationsPoll
            return .object([("apnsEnvironment", .string(try JSONFields.string(body, "apnsEnvironment") ?? path.environment.rawValue)),
                            ("apnsToken", .string(token)), ("webcourierURL", .string(poll.text))])
        case .tokensRegister, .tokensUnregister:
            _ = try JSONFields.object(body, "the request")
            guard let token = try JSONFields.string(body, "apnsToken", required: true) else { return .object([]) }
            let address = DeviceAddress(container: path.container, userRecordName: account.userRecordName,
                                        deviceID: try NotificationsCodec.device(fromAPNSToken: token))
            if path.endpoint == .tokensRegister { try service.registerDevice(address) } else { try service.unregisterDevice(address) }
            return .object([("apnsToken", .string(token))])
        case .notificationsPoll:
            let (device, timeout, limit) = try NotificationsCodec.decodePoll(body)
            return NotificationsCodec.encodeNotifications(try poll(device: device, timeout: min(timeout, maxPollSeconds), limit: limit))
        case .kvModify:
            try requirePrivate()
            return KeyValueCodec.encodeItems(try service.modifyKeyValues(try KeyValueCodec.decodeModify(body), in: database))
        case .kvChanges:
            try requirePrivate()
            _ = try JSONFields.object(body, "the request")
            let changes = try service.fetchKeyValueChanges(since: try JSONFields.token(body), in: database)
            return KeyValueCodec.encodeItems(changes.items, token: changes.token)
        case .assetsData, .assetsDownload:
            return .object([])
        case .schemaExport, .schemaImport, .schemaDeploy, .schemaReset:
            return try schemaReply(to: body)
        case .sharesModify, .sharesParticipants, .sharesDelete, .sharesList, .sharesAccept, .sharesLeave, .sharesUser:
            return try sharesReply(to: body, in: database)
        }
    }

    /// The `schema/…` extension. Any signed-in account may read a schema; import, deploy and
    /// reset need an administrator of the container (a credential with the administrator role,
    /// or an account the container names: `StorageBackedCloud+Administrators`), and go through the
    /// private database. Import and reset name the development environment in their path.
    func schemaReply(to body: JSONValue) throws(CloudError) -> JSONValue {
        guard let schemas = service.capabilities.schema else {
            throw CloudError(.serviceUnavailable, "this cloud does not offer schema administration")
        }
        _ = try JSONFields.object(body, "the request")
        let container = path.container
        if path.endpoint != .schemaExport {
            guard path.scope == .private else {
                throw CloudError(.badDatabase, "schema administration goes through the private database")
            }
        }
        if path.endpoint == .schemaImport || path.endpoint == .schemaReset {
            guard path.environment == .development else {
                throw CloudError(.invalidArguments, "\(path.endpoint.rawValue) works on development only; change development, then deploy")
            }
        }
        let dryRun = try JSONFields.bool(body, "dryRun") ?? false
        switch path.endpoint {
        case .schemaImport:
            let schema = try SchemaCodec.decodeSchema(body)
            return SchemaCodec.encodeDiff(try schemas.importSchema(schema, container: container, dryRun: dryRun, by: caller),
                                          applied: !dryRun)
        case .schemaDeploy:
            let allowWider = try JSONFields.bool(body, "allowWiderGrants") ?? false
            let check = try schemas.deploySchema(container: container, dryRun: dryRun, allowWiderGrants: allowWider, by: caller)
            return SchemaCodec.encodeCheck(check, deployed: check.isAllowed && !dryRun)
        case .schemaReset:
            try schemas.resetDevelopment(container: container, by: caller)
            return .object([("reset", .bool(true))])
        default:
            return SchemaCodec.encodeSchema(try schemas.schema(container: container, environment: database.environment))
        }
    }

    /// The service's results keyed exactly by the IDs asked for (a backend may normalise owners).
    func normalized(_ results: [RecordID: Result<Record, CloudError>], _ ids: [RecordID]) -> [RecordID: Result<Record, CloudError>] {
        var byName: [String: Result<Record, CloudError>] = [:]
        for (id, result) in results { byName[RecordsCodec.key(id)] = result }
        var out: [RecordID: Result<Record, CloudError>] = [:]
        for id in ids { if let result = byName[RecordsCodec.key(id)] { out[id] = result } }
        return out
    }

    func modifyZones(_ operations: [ZonesCodec.Operation]) throws(CloudError) -> JSONValue {
        var creates: [ZoneSpec] = []
        var deletes: [String] = []
        var purges: [String] = []
        for operation in operations {
            switch operation {
            case .create(let spec): creates.append(spec)
            case .delete(let name, let purge): if purge { purges.append(name) } else { deletes.append(name) }
            }
        }
        var out: [JSONValue] = []
        if !creates.isEmpty { out += try service.saveZones(creates, in: database).map(ZonesCodec.encode) }
        if !deletes.isEmpty { try service.deleteZones(deletes, purge: false, in: database) }
        if !purges.isEmpty { try service.deleteZones(purges, purge: true, in: database) }
        out += (deletes + purges).map { .object([("zoneID", RecordJSON.encode(zoneID: database.zoneID($0))), ("deleted", .bool(true))]) }
        return .object([("zones", .array(out))])
    }

    /// Reads the device's notifications; with none waiting, holds the request until one arrives
    /// or `timeout` passes. The waiter is made before the first read, so nothing enqueued in
    /// between is missed.
    func poll(device: String, timeout: Double, limit: Int) throws(CloudError) -> [CloudNotification] {
        let address = DeviceAddress(container: path.container, userRecordName: account.userRecordName, deviceID: device)
        let waiter: (any NotificationWaiter)? = timeout > 0 ? try service.makeNotificationWaiter(for: address) : nil
        let deadline = NotificationClock.now() + timeout
        while true {
            let taken = try service.takeNotifications(for: address, limit: limit)
            let left = deadline - NotificationClock.now()
            guard taken.isEmpty, let waiter, left > 0 else { return taken }
            _ = waiter.wait(timeout: left)
        }
    }

    func requirePrivate() throws(CloudError) {
        guard path.scope == .private else {
            throw CloudError(.badDatabase, "the key-value store is in the private database only")
        }
    }

    /// `assets/upload`: `{zoneID, tokens: [{recordName?, recordType, fieldName}]}` →
    /// `{tokens: [{recordName, fieldName, url}]}`; `url` is the absolute URL to POST the bytes
    /// to, with a 15-minute grant that stands in for the credential (`uploadURL`). A
    /// token without `recordName` gets a new one (a UUID), as Apple's does; a member the request
    /// left out (`fieldName`) is left out of the reply too, never null.
    func uploadTokens(_ body: JSONValue) throws(CloudError) -> JSONValue {
        _ = try JSONFields.object(body, "the request")
        let items = try JSONFields.array(body, "tokens", required: true) ?? []
        try RecordsCodec.checkCount(items.count, "tokens")
        var out: [JSONValue] = []
        for (index, item) in items.enumerated() {
            _ = try JSONFields.object(item, "tokens[\(index)]")
            let recordName = try JSONFields.string(item, "recordName") ?? RequestUUID.make().uppercased()
            var pairs: [(String, JSONValue)] = [("recordName", .string(recordName))]
            if let field = item["fieldName"], field != .null { pairs.append(("fieldName", field)) }
            pairs.append(("url", .string(try uploadURL())))
            out.append(.object(pairs))
        }
        return .object([("tokens", .array(out))])
    }

    /// `assets/data` (extension): the body is the file; the reply is Apple's upload reply
    /// `{singleFile: {fileChecksum, size, receipt}}`.
    func uploadData() throws(CloudError) -> WebServicesResponse {
        guard let reference = try service.uploadAssets([request.body], in: database).first else {
            throw CloudError(.internalError, "the asset was not stored")
        }
        return json(.object([("singleFile", .object([("fileChecksum", .string(reference.checksum)), ("size", .int(reference.size)),
                                                     ("receipt", .string(reference.checksum))]))]))
    }

    /// `assets/download?fileChecksum=…&size=…[&zoneName=…&recordName=…]` (extension): the file's
    /// bytes. On the shared database the record the asset belongs to is named too.
    func download() throws(CloudError) -> WebServicesResponse {
        guard let checksum = request.parameter("fileChecksum"), let sizeText = request.parameter("size"),
              let size = Int64(sizeText), size >= 0 else {
            throw CloudError(.invalidArguments, "assets/download needs ?fileChecksum=…&size=…")
        }
        var record: RecordID?
        if let zoneName = request.parameter("zoneName"), let recordName = request.parameter("recordName") {
            record = RecordID(recordName: recordName,
                              zoneID: ZoneID(zoneName: zoneName, ownerRecordName: database.sharedOwner ?? ZoneID.currentUserOwner))
        }
        let bytes = try service.fetchAsset(AssetReference(checksum: checksum, size: size), of: record, in: database)
        return WebServicesResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: bytes)
    }
}
