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
        var created: ChangeStamp?, modified: ChangeStamp?, zone: ZoneID?
        var deleted = false
        var seen: UInt16 = 0
        /// A known key seen twice is left to the general path (which keeps the last one).
        func once(_ bit: UInt16) throws {
            guard seen & bit == 0 else { throw NotStoredShape() }
            seen |= bit
        }
        try parseMembers { parser, key in
            switch key {
            case "recordName", "recordType", "recordChangeTag":
                try once(key == "recordName" ? 1 : key == "recordType" ? 2 : 4)
                guard parser.peek(UInt8(ascii: "\"")) else { throw NotStoredShape() }
                let text = try parser.parseString()
                if key == "recordName" { name = text } else if key == "recordType" { type = text } else { tag = text }
            case "fields":
                try once(8)
                let start = parser.index
                fields = try parser.parseStoredFieldsObject()
                fieldsText = String(decoding: parser.bytes[start..<parser.index], as: UTF8.self)
            case "created":
                try once(16)
                created = try parser.parseStamp()
            case "modified":
                try once(32)
                modified = try parser.parseStamp()
            case "zoneID":
                try once(64)
                zone = try parser.parseZoneID()
            case "deleted":
                try once(128)
                deleted = try parser.parseValue(depth: 3) == .bool(true)
            case "serverErrorCode":
                // A per-record error (a modify reply's): the general path reads those.
                throw NotStoredShape()
            default: _ = try parser.parseValue(depth: 3)
            }
        }
        guard let name else { throw NotStoredShape() }
        if deleted {
            page.deleted.append((RecordID(recordName: name, zoneID: zone ?? defaultZone), type ?? ""))
            return
        }
        guard let type, let zone else { throw NotStoredShape() }
        var record = Record(recordID: RecordID(recordName: name, zoneID: zone), recordType: type, fields: fields)
        if let tag {
            let createdStamp = created ?? ChangeStamp(timestamp: 0, userRecordName: "", deviceID: "")
            record.system = SystemFields(changeTag: tag, created: createdStamp, modified: modified ?? createdStamp)
        }
        page.changed.append(record)
        page.fieldsTexts.append(fieldsText ?? "{}")
    }

    /// `{timestamp, userRecordName?, deviceID?}` with string names and an integer timestamp, as
    /// `RecordJSON.decodeStamp` reads it; anything else is left to the general path.
    mutating func parseStamp() throws -> ChangeStamp {
        var timestamp: Int64?, user: String?, device: String?
        var seen: UInt8 = 0
        try parseMembers { parser, key in
            let bit: UInt8 = key == "timestamp" ? 1 : key == "userRecordName" ? 2 : key == "deviceID" ? 4 : 0
            guard seen & bit == 0 else { throw NotStoredShape() }
            seen |= bit
            switch key {
            case "timestamp":
                guard case .int(let value) = try parser.parseValue(depth: 4) else { throw NotStoredShape() }
                timestamp = value
            case "userRecordName", "deviceID":
                guard parser.peek(UInt8(ascii: "\"")) else { throw NotStoredShape() }
                if key == "deviceID" { device = try parser.parseString() } else { user = try parser.parseString() }
            default: _ = try parser.parseValue(depth: 4)
            }
        }
        guard let timestamp else { throw NotStoredShape() }
        return ChangeStamp(timestamp: timestamp, userRecordName: user ?? "", deviceID: device ?? "")
    }

    /// `{zoneName, ownerRecordName?}` with string values, as `RecordJSON.decodeZoneID` reads it.
    mutating func parseZoneID() throws -> ZoneID {
        var zoneName: String?, owner: String?
        var seen: UInt8 = 0
        try parseMembers { parser, key in
            let bit: UInt8 = key == "zoneName" ? 1 : key == "ownerRecordName" ? 2 : 0
            guard seen & bit == 0 else { throw NotStoredShape() }
            seen |= bit
            switch key {
            case "zoneName", "ownerRecordName":
                guard parser.peek(UInt8(ascii: "\"")) else { throw NotStoredShape() }
                if key == "zoneName" { zoneName = try parser.parseString() } else { owner = try parser.parseString() }
            default: _ = try parser.parseValue(depth: 4)
            }
        }
        guard let zoneName else { throw NotStoredShape() }
        return ZoneID(zoneName: zoneName, ownerRecordName: owner ?? ZoneID.currentUserOwner)
    }
}
