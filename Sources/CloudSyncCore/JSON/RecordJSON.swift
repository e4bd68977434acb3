/// Coding of records and field values in the CloudKit Web Services dictionary shape:
/// `{recordName, recordType, recordChangeTag, fields: {name: {value, type}}, created, modified,
/// deleted, zoneID: {zoneName, ownerRecordName}}`, timestamps in ms, bytes in base64.
public enum RecordJSON {
    // MARK: Encoding

    /// Encodes a zone ID as `{zoneName, ownerRecordName}`.
    public static func encode(zoneID: ZoneID) -> JSONValue {
        .object([("zoneName", .string(zoneID.zoneName)), ("ownerRecordName", .string(zoneID.ownerRecordName))])
    }

    /// Encodes a change stamp as `{timestamp, userRecordName, deviceID}`.
    public static func encode(stamp: ChangeStamp) -> JSONValue {
        .object([("timestamp", .int(stamp.timestamp)), ("userRecordName", .string(stamp.userRecordName)),
                 ("deviceID", .string(stamp.deviceID))])
    }

    /// Encodes a whole record. Fields are written in name order.
    public static func encode(_ record: Record) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("recordName", .string(record.recordID.recordName)),
            ("recordType", .string(record.recordType)),
        ]
        if let system = record.system {
            pairs.append(("recordChangeTag", .string(system.changeTag)))
        }
        pairs.append(("fields", encode(fields: record.fields)))
        if let system = record.system {
            pairs.append(("created", encode(stamp: system.created)))
            pairs.append(("modified", encode(stamp: system.modified)))
        }
        pairs.append(("deleted", .bool(false)))
        pairs.append(("zoneID", encode(zoneID: record.recordID.zoneID)))
        return .object(pairs)
    }

    /// Encodes a deletion (tombstone) as `{recordName, deleted: true, zoneID}`.
    public static func encodeDeletion(_ recordID: RecordID, recordType: String? = nil) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("recordName", .string(recordID.recordName))]
        if let recordType { pairs.append(("recordType", .string(recordType))) }
        pairs.append(("deleted", .bool(true)))
        pairs.append(("zoneID", encode(zoneID: recordID.zoneID)))
        return .object(pairs)
    }

    /// Encodes the `fields` dictionary.
    public static func encode(fields: [String: FieldValue]) -> JSONValue {
        .object(fields.sorted { $0.key < $1.key }.map { name, value in
            (name, .object([("value", encodeValue(value)), ("type", .string(value.typeName.description))]))
        })
    }

    /// Encodes the bare `value` of a field (without its type).
    public static func encodeValue(_ value: FieldValue) -> JSONValue {
        switch value {
        case .string(let s): return .string(s)
        case .int64(let i): return .int(i)
        case .double(let d): return .double(d)
        case .timestamp(let t): return .int(t)
        case .bytes(let b): return .string(Base64.encode(b))
        case .reference(let r):
            return .object([("recordName", .string(r.recordID.recordName)),
                            ("zoneID", encode(zoneID: r.recordID.zoneID)),
                            ("action", .string(r.action.rawValue))])
        case .location(let l):
            var pairs: [(String, JSONValue)] = [("latitude", .double(l.latitude)), ("longitude", .double(l.longitude))]
            if let v = l.horizontalAccuracy { pairs.append(("horizontalAccuracy", .double(v))) }
            if let v = l.verticalAccuracy { pairs.append(("verticalAccuracy", .double(v))) }
            if let v = l.altitude { pairs.append(("altitude", .double(v))) }
            if let v = l.speed { pairs.append(("speed", .double(v))) }
            if let v = l.course { pairs.append(("course", .double(v))) }
            if let v = l.timestamp { pairs.append(("timestamp", .int(v))) }
            return .object(pairs)
        case .asset(let a):
            return .object([("fileChecksum", .string(a.checksum)), ("size", .int(a.size))])
        case .encryptedBytes(let b): return .string(Base64.encode(b))
        case .list(_, let items):
            return .array(items.map(encodeValue))
        }
    }

    // MARK: Decoding

    /// Decodes a whole record dictionary. `defaultZone` is used when `zoneID` is absent.
    public static func decodeRecord(_ json: JSONValue, defaultZone: ZoneID? = nil) throws(CloudError) -> Record {
        guard case .object = json else { throw bad("record must be a JSON object, got \(json.kindName)") }
        guard let name = json["recordName"]?.stringValue else { throw bad("record has no recordName") }
        guard let type = json["recordType"]?.stringValue else { throw bad("record \(name) has no recordType") }
        let zoneID: ZoneID
        if let z = json["zoneID"] {
            zoneID = try decodeZoneID(z)
        } else if let defaultZone {
            zoneID = defaultZone
        } else {
            throw bad("record \(name) has no zoneID")
        }
        let fields = try decodeFields(json["fields"] ?? .object([]))
        var record = Record(recordID: RecordID(recordName: name, zoneID: zoneID), recordType: type, fields: fields)
        if let tag = json["recordChangeTag"]?.stringValue {
            var created = ChangeStamp(timestamp: 0, userRecordName: "", deviceID: "")
            if let c = json["created"] { created = try decodeStamp(c) }
            var modified = created
            if let m = json["modified"] { modified = try decodeStamp(m) }
            record.system = SystemFields(changeTag: tag, created: created, modified: modified)
        }
        return record
    }

    /// Decodes `{zoneName, ownerRecordName}`; a missing owner means the current user.
    public static func decodeZoneID(_ json: JSONValue) throws(CloudError) -> ZoneID {
        guard let name = json["zoneName"]?.stringValue else { throw bad("zoneID has no zoneName") }
        return ZoneID(zoneName: name, ownerRecordName: json["ownerRecordName"]?.stringValue ?? ZoneID.currentUserOwner)
    }

    static func decodeStamp(_ json: JSONValue) throws(CloudError) -> ChangeStamp {
        guard let ts = json["timestamp"]?.int64Value else { throw bad("timestamp must be an integer of milliseconds") }
        return ChangeStamp(timestamp: ts, userRecordName: json["userRecordName"]?.stringValue ?? "",
                           deviceID: json["deviceID"]?.stringValue ?? "")
    }

    /// Decodes a `fields` dictionary: `{name: {value, type}}`. A field without `type` has its
    /// type inferred from the JSON value (string, integer, number, or a list of those).
    public static func decodeFields(_ json: JSONValue) throws(CloudError) -> [String: FieldValue] {
        guard let pairs = json.objectValue else { throw bad("fields must be a JSON object, got \(json.kindName)") }
        var fields: [String: FieldValue] = [:]
        for (name, entry) in pairs {
            try NameRules.validateIdentifier(name, kind: "field name")
            let valueJSON: JSONValue
            var typeName: FieldTypeName?
            if case .object = entry, let v = entry["value"] {
                valueJSON = v
                if let t = entry["type"] {
                    guard let text = t.stringValue, let parsed = FieldTypeName(text) else {
                        throw bad("field '\(name)': unknown type \(t.serialized())")
                    }
                    typeName = parsed
                }
            } else {
                throw bad("field '\(name)' must be an object {\"value\": …, \"type\": …}")
            }
            let type: FieldTypeName
            if let typeName { type = typeName } else { type = try inferType(valueJSON, field: name) }
            fields[name] = try decodeValue(valueJSON, type: type, field: name)
        }
        return fields
    }

    /// The type of an untyped value from its shape alone (for a field no schema knows): a
    /// string is STRING, an integer INT64, a number DOUBLE; an object with `fileChecksum` or
    /// `receipt` is an asset, with `latitude` a location, with `recordName` a reference; a list
    /// takes its elements' type. Anything else is BAD_REQUEST.
    public static func inferType(_ value: JSONValue, field: String) throws(CloudError) -> FieldTypeName {
        switch value {
        case .string: return FieldTypeName(.string)
        case .int: return FieldTypeName(.int64)
        case .double: return FieldTypeName(.double)
        case .array(let items):
            guard let first = items.first else { throw bad("field '\(field)': an empty list needs a type") }
            let element = try inferType(first, field: field)
            guard !element.isList else { throw bad("field '\(field)': lists of lists are not supported") }
            return FieldTypeName(element.element, isList: true)
        case .object(let pairs) where pairs.contains { $0.0 == "fileChecksum" || $0.0 == "receipt" }:
            return FieldTypeName(.asset)
        case .object(let pairs) where pairs.contains { $0.0 == "latitude" }:
            return FieldTypeName(.location)
        case .object(let pairs) where pairs.contains { $0.0 == "recordName" }:
            return FieldTypeName(.reference)
        default:
            throw bad("field '\(field)': cannot infer a type from a \(value.kindName); give \"type\"")
        }
    }

    /// Decodes the bare `value` of a field of the given type.
    public static func decodeValue(_ json: JSONValue, type: FieldTypeName, field: String) throws(CloudError) -> FieldValue {
        if type.isList {
            guard let items = json.arrayValue else {
                throw bad("field '\(field)': \(type) value must be an array, got \(json.kindName)")
            }
            var values: [FieldValue] = []
            values.reserveCapacity(items.count)
            for item in items {
                values.append(try decodeValue(item, type: FieldTypeName(type.element), field: field))
            }
            return .list(type.element, values)
        }
        func mismatch(_ expected: String) -> CloudError {
            bad("field '\(field)': \(type) value must be \(expected), got \(json.kindName) \(json.serialized().prefix(40))")
        }
        switch type.element {
        case .string:
            guard let s = json.stringValue else { throw mismatch("a string") }
            return .string(s)
        case .int64:
            guard case .int(let i) = json else { throw mismatch("an integer") }
            return .int64(i)
        case .double:
            guard let d = json.doubleValue else { throw mismatch("a number") }
            return .double(d)
        case .timestamp:
            guard let t = json.int64Value else { throw mismatch("an integer of milliseconds") }
            return .timestamp(t)
        case .bytes:
            guard let s = json.stringValue else { throw mismatch("a base64 string") }
            guard let b = Base64.decode(s) else { throw bad("field '\(field)': BYTES value is not valid base64") }
            return .bytes(b)
        case .reference:
            guard let name = json["recordName"]?.stringValue else { throw mismatch("an object with recordName") }
            var zone = ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: ZoneID.currentUserOwner)
            if let z = json["zoneID"] { zone = try decodeZoneID(z) }
            let actionText = json["action"]?.stringValue ?? "NONE"
            guard let action = ReferenceAction(rawValue: actionText.uppercased()) else {
                throw bad("field '\(field)': reference action must be NONE or DELETE_SELF, got '\(actionText)'")
            }
            return .reference(Reference(recordID: RecordID(recordName: name, zoneID: zone), action: action))
        case .location:
            guard let lat = json["latitude"]?.doubleValue, let lon = json["longitude"]?.doubleValue else {
                throw mismatch("an object with latitude and longitude")
            }
            guard (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw bad("field '\(field)': latitude must be in -90…90 and longitude in -180…180")
            }
            return .location(Location(latitude: lat, longitude: lon,
                                      horizontalAccuracy: json["horizontalAccuracy"]?.doubleValue,
                                      verticalAccuracy: json["verticalAccuracy"]?.doubleValue,
                                      altitude: json["altitude"]?.doubleValue, speed: json["speed"]?.doubleValue,
                                      course: json["course"]?.doubleValue, timestamp: json["timestamp"]?.int64Value))
        case .encryptedBytes:
            guard let s = json.stringValue else { throw mismatch("a base64 string") }
            guard let b = Base64.decode(s) else { throw bad("field '\(field)': ENCRYPTED_BYTES value is not valid base64") }
            return .encryptedBytes(b)
        case .asset:
            guard let sum = json["fileChecksum"]?.stringValue, let size = json["size"]?.int64Value else {
                throw mismatch("an object with fileChecksum and size")
            }
            return .asset(AssetReference(checksum: sum, size: size))
        }
    }

    static func bad(_ reason: String) -> CloudError { CloudError(.invalidArguments, reason) }
}
