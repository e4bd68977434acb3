/// A `records/changes` reply read in one pass, keeping each record's `fields` text.
public struct RecordJSONChangesPage: Sendable {
    /// The changed records, in reply order.
    public var changed: [Record] = []
    /// The `fields` text of `changed[i]` as it was in the reply (it decodes to exactly its fields).
    public var fieldsTexts: [String] = []
    /// The deletions: record ID and type ("" when the reply has none).
    public var deleted: [(recordID: RecordID, recordType: String)] = []
    public var syncToken: String?
    public var moreComing: Bool?
}

extension RecordJSON {
    /// A `records/changes` reply (`{zoneID, records: [record | {recordName, recordType?,
    /// deleted: true, zoneID?}], syncToken, moreComing}`) decoded without building a `JSONValue`
    /// tree of it: records as `decodeRecord` reads them, deletions with the default zone when they
    /// name none, and each record's fields text kept, so a device cache can store it as it is.
    /// nil when the reply is not in that exact shape (malformed, a repeated key, a value of an
    /// unexpected type, an unusual field): the caller then takes the general path, which gives
    /// the same records or its own error.
    public static func decodeChangesPage(bytes: [UInt8], defaultZone: ZoneID) -> RecordJSONChangesPage? {
        var parser = JSONByteParser(bytes: bytes)
        var page = RecordJSONChangesPage()
        var seen = Set<String>()
        do {
            parser.skipWhitespace()
            try parser.parseMembers { parser, key in
                guard seen.insert(key).inserted else { throw JSONByteParser.NotStoredShape() }
                switch key {
                case "records":
                    try parser.expect(UInt8(ascii: "["))
                    parser.skipWhitespace()
                    if parser.peek(UInt8(ascii: "]")) { parser.index += 1; return }
                    while true {
                        parser.skipWhitespace()
                        try parser.parseChangesEntry(into: &page, defaultZone: defaultZone)
                        parser.skipWhitespace()
                        if parser.peek(UInt8(ascii: ",")) { parser.index += 1; continue }
                        try parser.expect(UInt8(ascii: "]"))
                        return
                    }
                case "syncToken":
                    guard parser.peek(UInt8(ascii: "\"")) else { throw JSONByteParser.NotStoredShape() }
                    page.syncToken = try parser.parseString()
                case "moreComing":
                    guard case .bool(let more) = try parser.parseValue(depth: 1) else { throw JSONByteParser.NotStoredShape() }
                    page.moreComing = more
                default:
                    _ = try parser.parseValue(depth: 1)
                }
            }
            parser.skipWhitespace()
            guard parser.index == bytes.count, seen.contains("records") else { return nil }
        } catch {
            return nil
        }
        return page
    }
}

extension JSONByteParser {
    /// One entry of `records`: a changed record (its fields text kept) or a deletion.
    mutating func parseChangesEntry(into page: inout RecordJSONChangesPage, defaultZone: ZoneID) throws {
        var name: String?, type: String?, tag: String?
        var fields: [String: FieldValue] = [:]
        var fieldsText: String?
        var created: JSONValue?, modified: JSONValue?, zone: JSONValue?
        var deleted = false
        var seen = Set<String>()
        try parseMembers { parser, key in
            guard seen.insert(key).inserted else { throw NotStoredShape() }
            switch key {
            case "recordName", "recordType", "recordChangeTag":
                guard parser.peek(UInt8(ascii: "\"")) else { throw NotStoredShape() }
                let text = try parser.parseString()
                if key == "recordName" { name = text } else if key == "recordType" { type = text } else { tag = text }
            case "fields":
                let start = parser.index
                fields = try parser.parseStoredFieldsObject()
                fieldsText = String(decoding: parser.bytes[start..<parser.index], as: UTF8.self)
            case "created": created = try parser.parseValue(depth: 3)
            case "modified": modified = try parser.parseValue(depth: 3)
            case "zoneID": zone = try parser.parseValue(depth: 3)
            case "deleted": deleted = try parser.parseValue(depth: 3) == .bool(true)
            default: _ = try parser.parseValue(depth: 3)
            }
        }
        guard let name else { throw NotStoredShape() }
        if deleted {
            let zoneID = try zone.map { try RecordJSON.decodeZoneID($0) } ?? defaultZone
            page.deleted.append((RecordID(recordName: name, zoneID: zoneID), type ?? ""))
            return
        }
        guard let type, let zone else { throw NotStoredShape() }
        var record = Record(recordID: RecordID(recordName: name, zoneID: try RecordJSON.decodeZoneID(zone)), recordType: type,
                            fields: fields)
        if let tag {
            let createdStamp = try created.map { try RecordJSON.decodeStamp($0) }
                ?? ChangeStamp(timestamp: 0, userRecordName: "", deviceID: "")
            let modifiedStamp = try modified.map { try RecordJSON.decodeStamp($0) } ?? createdStamp
            record.system = SystemFields(changeTag: tag, created: createdStamp, modified: modifiedStamp)
        }
        page.changed.append(record)
        page.fieldsTexts.append(fieldsText ?? "{}")
    }
}
