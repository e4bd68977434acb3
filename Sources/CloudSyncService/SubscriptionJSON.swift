import CloudSyncCore

extension Subscription {
    /// The subscription for humans and scripts, close to the Web Services subscription
    /// dictionary: `{subscriptionID, subscriptionType, databaseScope?, zoneID?, query?: {recordType,
    /// predicate}, firesOn?, firesOnce?, notificationInfo: {alertBody, shouldSendContentAvailable,
    /// desiredKeys}, creationDate, modificationDate}`. The predicate is written in the format
    /// language (`%@` arguments as literals).
    public func json(scope: DatabaseScope? = nil, zoneOwner: String? = nil) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("subscriptionID", .string(subscriptionID)),
            ("subscriptionType", .string(kind.typeName)),
        ]
        if let scope { pairs.append(("databaseScope", .string(scope.rawValue))) }
        if let zoneName {
            pairs.append(("zoneID", RecordJSON.encode(zoneID: ZoneID(zoneName: zoneName,
                                                                      ownerRecordName: self.zoneOwner ?? zoneOwner ?? ZoneID.currentUserOwner))))
        }
        if let query {
            pairs.append(("query", .object([("recordType", .string(query.recordType)),
                                            ("predicate", .string(query.predicate.description))])))
            pairs.append(("zoneWide", .bool(query.zoneName == nil)))
            pairs.append(("firesOn", .array(query.firesOn.names.map { .string($0) })))
            pairs.append(("firesOnce", .bool(query.firesOnce)))
        }
        pairs.append(("notificationInfo", .object([
            ("alertBody", notificationInfo.alertBody.map { .string($0) } ?? .null),
            ("shouldSendContentAvailable", .bool(notificationInfo.isSilent)),
            ("desiredKeys", .array(notificationInfo.desiredKeys.map { .string($0) })),
        ])))
        pairs.append(("creationDate", creationDate.map { .int($0) } ?? .null))
        pairs.append(("modificationDate", modificationDate.map { .int($0) } ?? .null))
        return .object(pairs)
    }
}

/// How the cloud stores a subscription's definition: lossless JSON, including the predicate's
/// structure (a `%@` argument keeps its text and is typed by the field it meets, which the
/// format language cannot say).
enum SubscriptionStorage {
    static func encode(_ subscription: Subscription) -> String {
        var pairs: [(String, JSONValue)] = []
        if let query = subscription.query {
            pairs.append(("recordType", .string(query.recordType)))
            pairs.append(("predicate", encode(query.predicate)))
            pairs.append(("firesOn", .int(Int64(query.firesOn.rawValue))))
            pairs.append(("firesOnce", .bool(query.firesOnce)))
        }
        pairs.append(("alertBody", subscription.notificationInfo.alertBody.map { .string($0) } ?? .null))
        pairs.append(("desiredKeys", .array(subscription.notificationInfo.desiredKeys.map { .string($0) })))
        if let owner = subscription.zoneOwner { pairs.append(("zoneOwner", .string(owner))) }
        return JSONValue.object(pairs).serialized()
    }

    /// Rebuilds a subscription from its stored columns.
    static func decode(id: String, kind: String, zoneName: String?, definition: String, created: Int64,
                       modified: Int64) throws -> Subscription {
        let json = try JSONValue.parse(definition)
        let info = NotificationInfo(alertBody: json["alertBody"]?.stringValue,
                                    desiredKeys: json["desiredKeys"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let parsedKind: Subscription.Kind
        switch kind {
        case "database":
            parsedKind = .database
        case "zone":
            parsedKind = .recordZone(zoneName: zoneName ?? "")
        case "query":
            guard let type = json["recordType"]?.stringValue, let predicate = json["predicate"] else {
                throw damaged(id)
            }
            parsedKind = .query(QuerySubscription(
                recordType: type, predicate: try decodePredicate(predicate, id: id, depth: 0), zoneName: zoneName,
                firesOn: QueryFiresOn(rawValue: Int(json["firesOn"]?.int64Value ?? 0)),
                firesOnce: json["firesOnce"]?.boolValue ?? false))
        default:
            throw damaged(id)
        }
        return Subscription(subscriptionID: id, kind: parsedKind, notificationInfo: info, creationDate: created,
                            modificationDate: modified, zoneOwner: json["zoneOwner"]?.stringValue)
    }

    static func damaged(_ id: String) -> CloudError {
        CloudError(.internalError, "the stored definition of subscription '\(id)' is damaged")
    }

    // MARK: Predicates

    static func encode(_ predicate: Predicate) -> JSONValue {
        switch predicate {
        case .truePredicate:
            return .object([("true", .bool(true))])
        case .comparison(let key, let op, let value):
            return .object([("key", .string(key)), ("op", .string(op.rawValue)), ("value", encode(value))])
        case .and(let items):
            return .object([("and", .array(items.map(encode)))])
        case .not(let inner):
            return .object([("not", encode(inner))])
        }
    }

    static func encode(_ value: PredicateValue) -> JSONValue {
        switch value {
        case .string(let s): .object([("string", .string(s))])
        case .int64(let i): .object([("int64", .int(i))])
        // As text: Double's description reads back exactly.
        case .double(let d): .object([("double", .string(d.description))])
        case .timestamp(let t): .object([("timestamp", .int(t))])
        case .argument(let text): .object([("argument", .string(text))])
        case .list(let items): .object([("list", .array(items.map(encode)))])
        }
    }

    /// `depth`: `not`/`and` nodes above this one. A stored predicate deeper than
    /// `Predicate.maxNestingDepth` (which validation refuses) is damaged: it is never rebuilt,
    /// so it can never be evaluated.
    static func decodePredicate(_ json: JSONValue, id: String, depth: Int) throws(CloudError) -> Predicate {
        if json["true"] != nil { return .truePredicate }
        if json["and"] != nil || json["not"] != nil {
            guard depth < Predicate.maxNestingDepth else {
                throw CloudError(.internalError,
                                 "the stored predicate of subscription '\(id)' nests deeper than \(Predicate.maxNestingDepth) levels")
            }
        }
        if let items = json["and"]?.arrayValue {
            var out: [Predicate] = []
            for item in items { out.append(try decodePredicate(item, id: id, depth: depth + 1)) }
            return .and(out)
        }
        if let inner = json["not"] { return .not(try decodePredicate(inner, id: id, depth: depth + 1)) }
        guard let key = json["key"]?.stringValue, let opName = json["op"]?.stringValue,
              let op = PredicateOperator(rawValue: opName), let value = json["value"] else {
            throw damaged(id)
        }
        return .comparison(key, op, try decodeValue(value, id: id))
    }

    static func decodeValue(_ json: JSONValue, id: String) throws(CloudError) -> PredicateValue {
        if let s = json["string"]?.stringValue { return .string(s) }
        if let i = json["int64"]?.int64Value { return .int64(i) }
        if let text = json["double"]?.stringValue, let d = Double(text) { return .double(d) }
        if let t = json["timestamp"]?.int64Value { return .timestamp(t) }
        if let text = json["argument"]?.stringValue { return .argument(text) }
        if let items = json["list"]?.arrayValue {
            var out: [PredicateValue] = []
            for item in items { out.append(try decodeValue(item, id: id)) }
            return .list(out)
        }
        throw damaged(id)
    }
}
