import CloudSyncService
import CloudSyncCore

/// Extension: the ubiquitous key-value store over HTTP, at
/// `/database/1/{container}/{environment}/private/kv/modify` and `…/private/kv/changes`.
///
/// - `kv/modify`: `{items: [{key, value: {type, value}} | {key, deleted: true}]}` →
///   `{items: [item…]}`, all or nothing (QUOTA_EXCEEDED changes nothing).
/// - `kv/changes`: `{syncToken?}` → `{items: [item…], syncToken}`.
///
/// An item is `{key, value: {type, value}, modified, deviceID}` or `{key, deleted: true, modified,
/// deviceID}`; `type` is `string`, `number`, `bool`, `data` (base64) or `json` (any JSON).
public enum KeyValueCodec {
    public static func encode(_ value: KeyValue) -> JSONValue {
        .object([("type", .string(value.typeName)), ("value", value.jsonValue)])
    }

    public static func decodeValue(_ json: JSONValue, key: String) throws(CloudError) -> KeyValue {
        _ = try JSONFields.object(json, "the value of '\(key)'")
        guard let type = try JSONFields.string(json, "type", required: true), let raw = json["value"] else {
            throw JSONFields.bad("the value of '\(key)' has no value")
        }
        func mismatch() -> CloudError { JSONFields.bad("the value of '\(key)' is not a valid \(type)") }
        switch type {
        case "string": guard let s = raw.stringValue else { throw mismatch() }; return .string(s)
        case "number": guard let d = raw.doubleValue, d.isFinite else { throw mismatch() }; return .number(d)
        case "bool": guard let b = raw.boolValue else { throw mismatch() }; return .bool(b)
        case "data":
            guard let text = raw.stringValue, let bytes = Base64.decode(text) else { throw mismatch() }
            return .data(bytes)
        case "json": return .json(raw)
        default: throw JSONFields.bad("unknown value type \(NameRules.quoted(type)) for '\(key)'; use string, number, bool, data or json")
        }
    }

    public static func encode(_ item: KeyValueItem) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("key", .string(item.key))]
        if let value = item.value { pairs.append(("value", encode(value))) } else { pairs.append(("deleted", .bool(true))) }
        pairs.append(("modified", .int(item.modified)))
        pairs.append(("deviceID", .string(item.deviceID)))
        return .object(pairs)
    }

    public static func decodeItem(_ json: JSONValue) throws(CloudError) -> KeyValueItem {
        guard let key = json["key"]?.stringValue else { throw RecordsCodec.malformedReply("a key-value item has no key") }
        var value: KeyValue?
        if json["deleted"]?.boolValue != true, let raw = json["value"] { value = try decodeValue(raw, key: key) }
        return KeyValueItem(key: key, value: value, modified: json["modified"]?.int64Value ?? 0,
                            deviceID: json["deviceID"]?.stringValue ?? "")
    }

    public static func encodeModify(_ writes: [KeyValueWrite]) -> JSONValue {
        .object([("items", .array(writes.map { write in
            if let value = write.value { return .object([("key", .string(write.key)), ("value", encode(value))]) }
            return .object([("key", .string(write.key)), ("deleted", .bool(true))])
        }))])
    }

    /// The most items one `kv/modify` request may hold (an extension path, not bound by the
    /// protocol's 200 operations: a batch over the store's quota must reach the service whole).
    public static let maxItems = 4 * KeyValueLimits.maxKeys

    public static func decodeModify(_ json: JSONValue) throws(CloudError) -> [KeyValueWrite] {
        _ = try JSONFields.object(json, "the request")
        guard let items = try JSONFields.array(json, "items", required: true) else { return [] }
        // The store's writes are all or nothing, so one request carries a whole batch: the
        // service judges the quota (1024 keys); past 4 times that the request is refused unread.
        guard items.count <= maxItems else {
            throw CloudError(.limitExceeded, "\(items.count) items in one request; at most \(maxItems) are allowed")
        }
        var writes: [KeyValueWrite] = []
        for (index, item) in items.enumerated() {
            _ = try JSONFields.object(item, "items[\(index)]")
            guard let key = try JSONFields.string(item, "key", required: true) else { continue }
            if try JSONFields.bool(item, "deleted") == true {
                writes.append(KeyValueWrite(key: key, value: nil))
            } else {
                guard let raw = item["value"] else { throw JSONFields.bad("items[\(index)] has neither value nor deleted") }
                writes.append(KeyValueWrite(key: key, value: try decodeValue(raw, key: key)))
            }
        }
        return writes
    }

    public static func encodeItems(_ items: [KeyValueItem], token: ServerChangeToken? = nil) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("items", .array(items.map(encode)))]
        if let token { pairs.append(("syncToken", .string(token.rawValue))) }
        return .object(pairs)
    }

    public static func decodeItems(_ json: JSONValue) throws(CloudError) -> [KeyValueItem] {
        var out: [KeyValueItem] = []
        for entry in try JSONFields.array(json, "items", required: true) ?? [] { out.append(try decodeItem(entry)) }
        return out
    }
}
