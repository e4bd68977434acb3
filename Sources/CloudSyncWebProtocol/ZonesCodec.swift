import CloudSyncService
import CloudSyncCore

/// `zones/list`, `zones/lookup`, `zones/modify`, `zones/changes` and `changes/database`.
///
/// A zone dictionary is `{zoneID, syncToken, atomic}` plus the extensions `capabilities`
/// (`FETCH_CHANGES`, `ATOMIC`) and `recordCount`. In change replies a deleted zone is
/// `{zoneID, deleted: true, purged}`; deletions come before changes, as `DatabaseChanges` orders them.
public enum ZonesCodec {
    public static func encode(_ zone: ZoneInfo) -> JSONValue { ZoneJSON.encode(zone) }

    public static func decodeZone(_ json: JSONValue) throws(CloudError) -> ZoneInfo {
        guard let zoneJSON = json["zoneID"] else { throw RecordsCodec.malformedReply("a zone has no zoneID") }
        var capabilities: ZoneCapabilities = []
        if let names = json["capabilities"]?.arrayValue {
            for name in names {
                if name.stringValue == "FETCH_CHANGES" { capabilities.insert(.fetchChanges) }
                if name.stringValue == "ATOMIC" { capabilities.insert(.atomic) }
            }
        } else {
            capabilities.insert(.fetchChanges)
            if json["atomic"]?.boolValue == true { capabilities.insert(.atomic) }
        }
        return ZoneInfo(zoneID: try RecordJSON.decodeZoneID(zoneJSON), capabilities: capabilities,
                        syncToken: try JSONFields.token(json), recordCount: Int(json["recordCount"]?.int64Value ?? 0))
    }

    /// `{zones: [...]}`.
    public static func encodeZones(_ zones: [ZoneInfo]) -> JSONValue { .object([("zones", .array(zones.map(encode)))]) }

    public static func decodeZones(_ json: JSONValue) throws(CloudError) -> [ZoneInfo] {
        var out: [ZoneInfo] = []
        for entry in try JSONFields.array(json, "zones", required: true) ?? [] {
            if entry["serverErrorCode"] != nil { throw WebServicesError.decode(entry) }
            out.append(try decodeZone(entry))
        }
        return out
    }

    // MARK: zones/lookup

    public static func decodeLookup(_ json: JSONValue) throws(CloudError) -> [String] {
        _ = try JSONFields.object(json, "the request")
        guard let items = try JSONFields.array(json, "zones", required: true) else { return [] }
        try RecordsCodec.checkCount(items.count, "zones")
        var names: [String] = []
        for (index, item) in items.enumerated() {
            _ = try JSONFields.object(item, "zones[\(index)]")
            // Apple's lookup items are zone ID dictionaries; `{zoneID: {...}}` is accepted too.
            let idJSON = item["zoneID"] ?? item
            guard let name = idJSON["zoneName"]?.stringValue else { throw JSONFields.bad("zones[\(index)] has no zoneName") }
            names.append(name)
        }
        return names
    }

    /// Zones in request order; a missing one is `{zoneID, serverErrorCode: ZONE_NOT_FOUND, reason}`.
    public static func encodeLookupReply(_ names: [String], live: [ZoneInfo], owner: String, uuid: String) -> JSONValue {
        .object([("zones", .array(names.map { name in
            if let zone = live.first(where: { $0.zoneID.zoneName == name }) { return encode(zone) }
            var body = WebServicesError.body(CloudError(.zoneNotFound, "zone '\(name)' does not exist"), uuid: uuid)
            if case .object(var pairs) = body {
                pairs.insert(("zoneID", RecordJSON.encode(zoneID: ZoneID(zoneName: name, ownerRecordName: owner))), at: 0)
                body = .object(pairs)
            }
            return body
        }))])
    }

    // MARK: zones/modify

    /// One zone operation: `create` or `delete` (Apple's), `purge` (extension: a delete by the user).
    public enum Operation: Sendable, Hashable {
        case create(ZoneSpec)
        case delete(String, purge: Bool)
    }

    public static func encodeModify(_ operations: [Operation], owner: String) -> JSONValue {
        .object([("operations", .array(operations.map { operation in
            switch operation {
            case .create(let spec):
                return .object([("operationType", .string("create")),
                                ("zone", .object([("zoneID", RecordJSON.encode(zoneID: ZoneID(zoneName: spec.name, ownerRecordName: owner))),
                                                  ("atomic", .bool(spec.atomic))]))])
            case .delete(let name, let purge):
                return .object([("operationType", .string(purge ? "purge" : "delete")),
                                ("zone", .object([("zoneID", RecordJSON.encode(zoneID: ZoneID(zoneName: name, ownerRecordName: owner)))]))])
            }
        }))])
    }

    public static func decodeModify(_ json: JSONValue) throws(CloudError) -> [Operation] {
        _ = try JSONFields.object(json, "the request")
        guard let items = try JSONFields.array(json, "operations", required: true) else { return [] }
        try RecordsCodec.checkCount(items.count, "operations")
        var out: [Operation] = []
        for (index, item) in items.enumerated() {
            _ = try JSONFields.object(item, "operations[\(index)]")
            guard let type = try JSONFields.string(item, "operationType", required: true) else { continue }
            guard let zone = item["zone"] else { throw JSONFields.bad("operations[\(index)] has no zone") }
            guard let zoneID = try JSONFields.zoneID(zone) else { throw JSONFields.bad("operations[\(index)].zone has no zoneID") }
            switch type {
            case "create": out.append(.create(ZoneSpec(name: zoneID.zoneName, atomic: try JSONFields.bool(zone, "atomic") ?? true)))
            case "delete": out.append(.delete(zoneID.zoneName, purge: false))
            case "purge": out.append(.delete(zoneID.zoneName, purge: true))
            default:
                throw JSONFields.bad("operations[\(index)]: unknown operationType \(NameRules.quoted(type)); use create or delete")
            }
        }
        return out
    }

    // MARK: zones/changes, changes/database

    public static func encodeChangesRequest(since token: ServerChangeToken?, limit: Int) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("resultsLimit", .int(Int64(limit)))]
        if let token { pairs.append(("syncToken", .string(token.rawValue))) }
        return .object(pairs)
    }

    public static func decodeChangesRequest(_ json: JSONValue) throws(CloudError) -> (token: ServerChangeToken?, limit: Int) {
        _ = try JSONFields.object(json, "the request")
        return (try JSONFields.token(json),
                try JSONFields.limit(json, "resultsLimit", default: CloudLimits.defaultPageSize, maximum: CloudLimits.maxPageSize))
    }

    public static func encodeChangesReply(_ changes: DatabaseChanges) -> JSONValue {
        var zones: [JSONValue] = changes.deletedZones.map { zoneID, reason in
            .object([("zoneID", RecordJSON.encode(zoneID: zoneID)), ("deleted", .bool(true)), ("purged", .bool(reason == .purged)),
                     ("unshared", .bool(reason == .unshared))])
        }
        zones += changes.changedZones.map { .object([("zoneID", RecordJSON.encode(zoneID: $0))]) }
        return .object([("zones", .array(zones)), ("syncToken", .string(changes.token.rawValue)),
                        ("moreComing", .bool(changes.moreComing))])
    }

    public static func decodeChangesReply(_ json: JSONValue) throws(CloudError) -> DatabaseChanges {
        var changed: [ZoneID] = []
        var deleted: [(zoneID: ZoneID, reason: ZoneDeletionReason)] = []
        for entry in try JSONFields.array(json, "zones", required: true) ?? [] {
            guard let zoneID = try JSONFields.zoneID(entry) else { throw RecordsCodec.malformedReply("a zone has no zoneID") }
            if entry["deleted"]?.boolValue == true {
                deleted.append((zoneID, entry["purged"]?.boolValue == true ? .purged
                                    : entry["unshared"]?.boolValue == true ? .unshared : .deleted))
            } else {
                changed.append(zoneID)
            }
        }
        guard let token = try JSONFields.token(json) else { throw RecordsCodec.malformedReply("no syncToken") }
        return DatabaseChanges(changedZones: changed, deletedZones: deleted, token: token,
                               moreComing: try JSONFields.bool(json, "moreComing") ?? false)
    }
}
