/// Parses the `--field name[:TYPE]=value` arguments of the CLI into typed field values.
///
/// Without `:TYPE` the value is a STRING. Typed forms:
/// - `INT64`, `DOUBLE`: a number; `TIMESTAMP`: ISO 8601, `@<epoch seconds>` or epoch milliseconds;
/// - `BYTES`: base64; `REFERENCE`: `recordName[@zone][#DELETE_SELF]`; `LOCATION`: `lat,lon`;
/// - `ASSETID`: `sha256hex:size`;
/// - `<TYPE>_LIST`: comma-separated items, or a JSON array;
/// - any type: a JSON value (`{…}` or `[…]`) in the Web Services form;
/// - any type: `@FILE` (`@-` for stdin) reads the value from a file, when the caller gives a
///   reader: BYTES and ASSETID take the file's bytes as they are, the other types its UTF-8 text
///   parsed as above. `@@…` is a value that starts with `@`; a TIMESTAMP `@<digits>` stays
///   epoch seconds.
public enum FieldArgument {
    /// Reads the contents of the file an `@FILE` value names (`-` is stdin).
    public typealias FileReader = (String) throws(CloudError) -> [UInt8]

    /// One parsed `--field`.
    public struct Parsed: Sendable {
        /// The field name.
        public let name: String
        /// The value. For an ASSETID read from a file this is `.bytes` of the contents, which the
        /// caller uploads (the cloud) or keeps as BYTES (the local store makes every BYTES an asset).
        public let value: FieldValue
        /// True when the value is the contents of an asset file still to be uploaded.
        public let isAssetContents: Bool
    }

    /// Parses one `name[:TYPE]=value` argument.
    public static func parse(_ text: String, defaultZone: ZoneID) throws(CloudError) -> (String, FieldValue) {
        let parsed = try parse(text, defaultZone: defaultZone, readFile: nil)
        return (parsed.name, parsed.value)
    }

    /// Parses one `name[:TYPE]=value` argument, reading `@FILE` values with `readFile` (without a
    /// reader `@…` is an ordinary value).
    public static func parse(_ text: String, defaultZone: ZoneID, readFile: FileReader?) throws(CloudError) -> Parsed {
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
        guard let readFile, raw.hasPrefix("@"), !isEpochSeconds(raw, type: type) else {
            return Parsed(name: name, value: try value(raw, type: type, field: name, defaultZone: defaultZone),
                          isAssetContents: false)
        }
        if raw.hasPrefix("@@") {
            return Parsed(name: name, value: try value(String(raw.dropFirst()), type: type, field: name, defaultZone: defaultZone),
                          isAssetContents: false)
        }
        let path = String(raw.dropFirst())
        guard !path.isEmpty else {
            throw CloudError(.invalidArguments, "field '\(name)': '@' must be followed by a file name (or - for stdin)")
        }
        let contents = try readFile(path)
        if !type.isList, type.element == .bytes || type.element == .asset {
            return Parsed(name: name, value: .bytes(contents), isAssetContents: type.element == .asset)
        }
        guard let fileText = String(validating: contents, as: UTF8.self) else {
            throw CloudError(.invalidArguments, "field '\(name)': \(path == "-" ? "stdin" : NameRules.quoted(path)) is not UTF-8 text (use :BYTES or :ASSETID for binary data)")
        }
        var valueText = fileText
        if type.element != .string, valueText.hasSuffix("\n") { valueText.removeLast() }
        return Parsed(name: name, value: try value(valueText, type: type, field: name, defaultZone: defaultZone),
                      isAssetContents: false)
    }

    /// True for a TIMESTAMP written as `@<epoch seconds>`, which `@` does not turn into a file.
    static func isEpochSeconds(_ raw: String, type: FieldTypeName) -> Bool {
        guard type.element == .timestamp, !type.isList else { return false }
        var digits = raw.dropFirst()
        if digits.first == "-" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
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
            if let ms = TimeInput.milliseconds(from: text) { return .timestamp(ms) }
            if text.hasPrefix("@"), Int64(text.dropFirst()) != nil { throw bad("a TIMESTAMP in range") }
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
