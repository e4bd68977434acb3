/// Parses the `--field name[:TYPE]=value` arguments of the CLI into typed field values.
///
/// Without `:TYPE` the value is a STRING. Typed forms:
/// - `INT64`, `DOUBLE`: a number; `TIMESTAMP`: ISO 8601, `@<epoch seconds>` or epoch milliseconds;
/// - `BYTES`: base64; `REFERENCE`: `recordName[@zone][#DELETE_SELF]`; `LOCATION`: `lat,lon`;
/// - `ASSETID`: `sha256hex:size`;
/// - `<TYPE>_LIST`: comma-separated items, or a JSON array;
/// - any type: a JSON value (`{…}` or `[…]`) in the Web Services form.
public enum FieldArgument {
    /// Parses one `name[:TYPE]=value` argument.
    public static func parse(_ text: String, defaultZone: ZoneID) throws(CloudError) -> (String, FieldValue) {
        guard let equals = text.firstIndex(of: "=") else {
            throw CloudError(.invalidArguments, "field \(NameRules.quoted(text)) must look like name=value or name:TYPE=value")
        }
        let key = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        var name = key
        var type = FieldTypeName(.string)
        if let colon = key.firstIndex(of: ":") {
            name = String(key[..<colon])
            let typeText = String(key[key.index(after: colon)...])
            guard let parsed = FieldTypeName(typeText) else {
                throw CloudError(.invalidArguments,
                                 "field '\(name)': unknown type '\(typeText)' (use STRING, INT64, DOUBLE, TIMESTAMP, BYTES, REFERENCE, LOCATION, ASSETID or <TYPE>_LIST)")
            }
            type = parsed
        }
        try NameRules.validateIdentifier(name, kind: "field name")
        return (name, try value(raw, type: type, field: name, defaultZone: defaultZone))
    }

    /// Parses a value of a known type.
    public static func value(_ raw: String, type: FieldTypeName, field: String,
                             defaultZone: ZoneID) throws(CloudError) -> FieldValue {
        let trimmed = raw.trimmingSpaces
        if type.element != .string || type.isList, trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            let json: JSONValue
            do {
                json = try JSONValue.parse(trimmed)
            } catch {
                throw CloudError(.invalidArguments, "field '\(field)': \(error)")
            }
            return try RecordJSON.decodeValue(json, type: type, field: field)
        }
        if type.isList {
            if trimmed.isEmpty { return .list(type.element, []) }
            var items: [FieldValue] = []
            for part in splitList(raw) {
                items.append(try scalar(part, type: type.element, field: field, defaultZone: defaultZone))
            }
            return .list(type.element, items)
        }
        return try scalar(raw, type: type.element, field: field, defaultZone: defaultZone)
    }

    static func splitList(_ raw: String) -> [String] {
        raw.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
    }

    static func scalar(_ raw: String, type: FieldType, field: String, defaultZone: ZoneID) throws(CloudError) -> FieldValue {
        func bad(_ expected: String) -> CloudError {
            CloudError(.invalidArguments, "field '\(field)': \(NameRules.quoted(raw)) is not \(expected)")
        }
        let text = raw.trimmingSpaces
        switch type {
        case .string:
            return .string(raw)
        case .int64:
            guard let v = Int64(text) else { throw bad("an INT64 (a whole number from -2^63 to 2^63-1)") }
            return .int64(v)
        case .double:
            guard text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }), let v = Double(text), v.isFinite else {
                throw bad("a finite decimal DOUBLE")
            }
            return .double(v)
        case .timestamp:
            if text.hasPrefix("@"), let seconds = Int64(text.dropFirst()) {
                let (ms, overflow) = seconds.multipliedReportingOverflow(by: 1000)
                guard !overflow else { throw bad("a TIMESTAMP in range") }
                return .timestamp(ms)
            }
            if let ms = Int64(text) { return .timestamp(ms) }
            if let ms = ISO8601.milliseconds(from: text) { return .timestamp(ms) }
            throw bad("a TIMESTAMP (ISO 8601 like 2024-05-01T12:00:00Z, @epoch-seconds or epoch milliseconds)")
        case .bytes:
            guard let bytes = Base64.decode(text) else { throw bad("base64 BYTES") }
            return .bytes(bytes)
        case .reference:
            var rest = Substring(text)
            var action = ReferenceAction.none
            if let hash = rest.firstIndex(of: "#") {
                let actionText = rest[rest.index(after: hash)...].uppercased()
                guard let parsed = ReferenceAction(rawValue: actionText.replacingDashes) else {
                    throw bad("a REFERENCE action (NONE or DELETE_SELF)")
                }
                action = parsed
                rest = rest[..<hash]
            }
            var zone = defaultZone
            if let at = rest.firstIndex(of: "@") {
                let zoneName = String(rest[rest.index(after: at)...])
                try NameRules.validateZoneName(zoneName)
                zone = ZoneID(zoneName: zoneName, ownerRecordName: defaultZone.ownerRecordName)
                rest = rest[..<at]
            }
            try NameRules.validateRecordName(String(rest))
            return .reference(Reference(recordID: RecordID(recordName: String(rest), zoneID: zone), action: action))
        case .location:
            let parts = text.split(separator: ",").map { String($0).trimmingSpaces }
            guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
                  (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw bad("a LOCATION (latitude,longitude within -90…90, -180…180)")
            }
            return .location(Location(latitude: lat, longitude: lon))
        case .encryptedBytes:
            throw CloudError(.invalidArguments,
                             "field '\(field)': ENCRYPTED_BYTES is made on the device; store plaintext and mark the field with --encrypt")
        case .asset:
            let parts = text.split(separator: ":")
            guard parts.count == 2, parts[0].count == 64, parts[0].allSatisfy(\.isHexDigit), let size = Int64(parts[1]), size >= 0 else {
                throw bad("an ASSETID (sha256hex:size)")
            }
            return .asset(AssetReference(checksum: parts[0].lowercased(), size: size))
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }

    var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
}
