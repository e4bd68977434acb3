import CloudSyncCore

/// Reading request and reply dictionaries with one-line errors that name the key.
package enum JSONFields {
    package static func bad(_ reason: String) -> CloudError { CloudError(.invalidArguments, reason) }

    /// The dictionary itself, or BAD_REQUEST naming `what`.
    package static func object(_ json: JSONValue, _ what: String) throws(CloudError) -> JSONValue {
        guard case .object = json else { throw bad("\(what) must be a JSON object, got \(json.kindName)") }
        return json
    }

    /// An array member; `nil` (or JSON null) when absent and not required.
    package static func array(_ json: JSONValue, _ key: String, required: Bool = false) throws(CloudError) -> [JSONValue]? {
        guard let value = json[key], value != .null else {
            if required { throw bad("'\(key)' is required") }
            return nil
        }
        guard let items = value.arrayValue else { throw bad("'\(key)' must be an array, got \(value.kindName)") }
        return items
    }

    package static func string(_ json: JSONValue, _ key: String, required: Bool = false) throws(CloudError) -> String? {
        guard let value = json[key], value != .null else {
            if required { throw bad("'\(key)' is required") }
            return nil
        }
        guard let text = value.stringValue else { throw bad("'\(key)' must be a string, got \(value.kindName)") }
        return text
    }

    package static func bool(_ json: JSONValue, _ key: String) throws(CloudError) -> Bool? {
        guard let value = json[key], value != .null else { return nil }
        guard let flag = value.boolValue else { throw bad("'\(key)' must be true or false, got \(value.kindName)") }
        return flag
    }

    /// A positive integer member (resultsLimit), capped at `maximum`.
    package static func limit(_ json: JSONValue, _ key: String, default fallback: Int, maximum: Int) throws(CloudError) -> Int {
        guard let value = json[key], value != .null else { return fallback }
        guard let number = value.int64Value, number >= 1 else {
            throw bad("'\(key)' must be a positive integer, got \(value.serialized().prefix(40))")
        }
        return Int(min(number, Int64(maximum)))
    }

    /// A `syncToken` member, without the position a server with read replicas appends
    /// (`PositionedToken`).
    package static func token(_ json: JSONValue, _ key: String = "syncToken") throws(CloudError) -> ServerChangeToken? {
        try string(json, key).map { ServerChangeToken(rawValue: PositionedToken.split($0).token) }
    }

    /// `desiredKeys`: nil for every field.
    package static func desiredKeys(_ json: JSONValue) throws(CloudError) -> [String]? {
        guard let items = try array(json, "desiredKeys") else { return nil }
        var keys: [String] = []
        for item in items {
            guard let key = item.stringValue else { throw bad("'desiredKeys' must hold strings, got \(item.kindName)") }
            keys.append(key)
        }
        return keys
    }

    /// `zoneID` member, or nil.
    package static func zoneID(_ json: JSONValue) throws(CloudError) -> ZoneID? {
        guard let value = json["zoneID"], value != .null else { return nil }
        _ = try object(value, "zoneID")
        return try RecordJSON.decodeZoneID(value)
    }
}
