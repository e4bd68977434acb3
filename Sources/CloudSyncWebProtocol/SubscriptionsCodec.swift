import CloudSyncService
import CloudSyncCore

/// `subscriptions/list`, `subscriptions/lookup` and `subscriptions/modify`.
///
/// A subscription dictionary is Apple's `{subscriptionID, subscriptionType (query|zone),
/// query: {recordType, filterBy, sortBy}, zoneID, zoneWide, firesOn: [create, update, delete],
/// firesOnce, notificationInfo: {alertBody, shouldSendContentAvailable, desiredKeys}}` plus
/// `creationDate`/`modificationDate`; the extension type `database` is CKDatabaseSubscription.
public enum SubscriptionsCodec {
    public static func encode(_ subscription: Subscription, owner: String) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("subscriptionID", .string(subscription.subscriptionID)),
            ("subscriptionType", .string(subscription.kind.typeName)),
        ]
        if let zoneName = subscription.zoneName {
            pairs.append(("zoneID", RecordJSON.encode(zoneID: ZoneID(zoneName: zoneName, ownerRecordName: subscription.zoneOwner ?? owner))))
        }
        if let query = subscription.query {
            pairs.append(("query", QueryCodec.encode(recordType: query.recordType, predicate: query.predicate, sort: [])))
            pairs.append(("zoneWide", .bool(query.zoneName == nil)))
            pairs.append(("firesOn", .array(query.firesOn.names.map { .string($0) })))
            pairs.append(("firesOnce", .bool(query.firesOnce)))
        }
        var info: [(String, JSONValue)] = []
        if let alert = subscription.notificationInfo.alertBody { info.append(("alertBody", .string(alert))) }
        info.append(("shouldSendContentAvailable", .bool(subscription.notificationInfo.isSilent)))
        info.append(("desiredKeys", .array(subscription.notificationInfo.desiredKeys.map { .string($0) })))
        pairs.append(("notificationInfo", .object(info)))
        if let created = subscription.creationDate { pairs.append(("creationDate", .int(created))) }
        if let modified = subscription.modificationDate { pairs.append(("modificationDate", .int(modified))) }
        return .object(pairs)
    }

    /// `sharedOwner`: in the shared database, where a zone is one owner's, the zone ID's owner
    /// becomes `zoneOwner`; elsewhere the zone ID's owner is the caller's and is not kept.
    public static func decode(_ json: JSONValue, sharedOwner: Bool = false) throws(CloudError) -> Subscription {
        _ = try JSONFields.object(json, "subscription")
        guard let id = try JSONFields.string(json, "subscriptionID", required: true) else { throw JSONFields.bad("no subscriptionID") }
        let type = try JSONFields.string(json, "subscriptionType") ?? (json["query"] == nil ? "zone" : "query")
        let zone = try JSONFields.zoneID(json)
        let kind: Subscription.Kind
        switch type {
        case "database":
            kind = .database
        case "zone":
            guard let zone else { throw JSONFields.bad("zone subscription '\(id)' has no zoneID") }
            kind = .recordZone(zoneName: zone.zoneName)
        case "query":
            guard let queryJSON = json["query"] else { throw JSONFields.bad("query subscription '\(id)' has no query") }
            let (recordType, predicate, _) = try QueryCodec.decode(queryJSON)
            var firesOn: QueryFiresOn = []
            for item in try JSONFields.array(json, "firesOn") ?? [.string("create"), .string("update"), .string("delete")] {
                guard let word = item.stringValue else { throw JSONFields.bad("'firesOn' must hold strings") }
                firesOn.formUnion(try QueryFiresOn(parsing: word))
            }
            let zoneWide = try JSONFields.bool(json, "zoneWide") ?? (zone == nil)
            kind = .query(QuerySubscription(recordType: recordType, predicate: predicate,
                                            zoneName: zoneWide ? nil : (zone?.zoneName ?? ZoneID.defaultZoneName),
                                            firesOn: firesOn, firesOnce: try JSONFields.bool(json, "firesOnce") ?? false))
        default:
            throw JSONFields.bad("unknown subscriptionType \(NameRules.quoted(type)); use query, zone or database")
        }
        var info = NotificationInfo()
        if let infoJSON = json["notificationInfo"], infoJSON != .null {
            _ = try JSONFields.object(infoJSON, "notificationInfo")
            info.alertBody = try JSONFields.string(infoJSON, "alertBody")
            info.desiredKeys = try JSONFields.desiredKeys(infoJSON) ?? []
        }
        // The zone's owner: meaningful in the shared database only (the service ignores it elsewhere).
        let owner = zone?.ownerRecordName
        let named = owner.flatMap { $0.isEmpty || $0 == ZoneID.currentUserOwner ? nil : $0 }
        return Subscription(subscriptionID: id, kind: kind, notificationInfo: info,
                            creationDate: json["creationDate"]?.int64Value, modificationDate: json["modificationDate"]?.int64Value,
                            zoneOwner: sharedOwner && type != "database" ? named : nil)
    }

    public static func encodeList(_ subscriptions: [Subscription], owner: String) -> JSONValue {
        .object([("subscriptions", .array(subscriptions.map { encode($0, owner: owner) }))])
    }

    public static func decodeList(_ json: JSONValue, sharedOwner: Bool = false) throws(CloudError) -> [Subscription] {
        var out: [Subscription] = []
        for entry in try JSONFields.array(json, "subscriptions", required: true) ?? [] {
            if entry["serverErrorCode"] != nil { throw WebServicesError.decode(entry) }
            out.append(try decode(entry, sharedOwner: sharedOwner))
        }
        return out
    }

    /// `{subscriptions: [{subscriptionID}]}`.
    public static func decodeLookup(_ json: JSONValue) throws(CloudError) -> [String] {
        _ = try JSONFields.object(json, "the request")
        guard let items = try JSONFields.array(json, "subscriptions", required: true) else { return [] }
        try RecordsCodec.checkCount(items.count, "subscriptions")
        var ids: [String] = []
        for (index, item) in items.enumerated() {
            _ = try JSONFields.object(item, "subscriptions[\(index)]")
            if let id = try JSONFields.string(item, "subscriptionID", required: true) { ids.append(id) }
        }
        return ids
    }

    public static func encodeLookupReply(_ ids: [String], live: [Subscription], owner: String, uuid: String) -> JSONValue {
        .object([("subscriptions", .array(ids.map { id in
            if let found = live.first(where: { $0.subscriptionID == id }) { return encode(found, owner: owner) }
            var body = WebServicesError.body(CloudError(.unknownItem, "subscription '\(id)' does not exist"), uuid: uuid)
            if case .object(var pairs) = body {
                pairs.insert(("subscriptionID", .string(id)), at: 0)
                body = .object(pairs)
            }
            return body
        }))])
    }

    /// A modify request: saves (`create`/`update`) and deletes.
    public static func encodeModify(saves: [Subscription], deletes: [String], owner: String) -> JSONValue {
        var operations: [JSONValue] = saves.map {
            .object([("operationType", .string("create")), ("subscription", encode($0, owner: owner))])
        }
        operations += deletes.map {
            .object([("operationType", .string("delete")), ("subscription", .object([("subscriptionID", .string($0))]))])
        }
        return .object([("operations", .array(operations))])
    }

    public static func decodeModify(_ json: JSONValue, sharedOwner: Bool = false) throws(CloudError) -> (saves: [Subscription], deletes: [String]) {
        _ = try JSONFields.object(json, "the request")
        guard let items = try JSONFields.array(json, "operations", required: true) else { return ([], []) }
        try RecordsCodec.checkCount(items.count, "operations")
        var saves: [Subscription] = []
        var deletes: [String] = []
        for (index, item) in items.enumerated() {
            _ = try JSONFields.object(item, "operations[\(index)]")
            guard let type = try JSONFields.string(item, "operationType", required: true) else { continue }
            guard let body = item["subscription"] else { throw JSONFields.bad("operations[\(index)] has no subscription") }
            switch type {
            case "create", "update": saves.append(try decode(body, sharedOwner: sharedOwner))
            case "delete":
                guard let id = try JSONFields.string(body, "subscriptionID", required: true) else { continue }
                deletes.append(id)
            default:
                throw JSONFields.bad("operations[\(index)]: unknown operationType \(NameRules.quoted(type)); use create, update or delete")
            }
        }
        return (saves, deletes)
    }
}
