/// Records written straight to bytes, for replies that carry many of them (a page of
/// `records/changes`): no `JSONValue` tree per record, and the fields copied in as the store
/// keeps them instead of being decoded and encoded again.
extension RecordJSON {
    /// Appends `encode(record).serialized()` to `out`, byte for byte. With `fieldsText` (the
    /// record's fields as JSON text that `decodeFields` turns into exactly `record.fields`, such as
    /// the stored text, which `fieldsText(_:)` wrote) those bytes are copied in as the `fields`
    /// value instead.
    public static func writeRecord(_ record: Record, fieldsText: String? = nil, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"recordName":"#.utf8)
        JSONValue.writeString(record.recordID.recordName, to: &out)
        out.append(contentsOf: #","recordType":"#.utf8)
        JSONValue.writeString(record.recordType, to: &out)
        if let system = record.system {
            out.append(contentsOf: #","recordChangeTag":"#.utf8)
            JSONValue.writeString(system.changeTag, to: &out)
        }
        out.append(contentsOf: #","fields":"#.utf8)
        if let fieldsText {
            out.append(contentsOf: fieldsText.utf8)
        } else {
            writeFields(record.fields, to: &out)
        }
        if let system = record.system {
            out.append(contentsOf: #","created":"#.utf8)
            writeStamp(system.created, to: &out)
            out.append(contentsOf: #","modified":"#.utf8)
            writeStamp(system.modified, to: &out)
        }
        out.append(contentsOf: #","deleted":false,"zoneID":"#.utf8)
        writeZoneID(record.recordID.zoneID, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `encodeDeletion(recordID, recordType:).serialized()` appended to `out`.
    public static func writeDeletion(_ recordID: RecordID, recordType: String? = nil, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"recordName":"#.utf8)
        JSONValue.writeString(recordID.recordName, to: &out)
        if let recordType {
            out.append(contentsOf: #","recordType":"#.utf8)
            JSONValue.writeString(recordType, to: &out)
        }
        out.append(contentsOf: #","deleted":true,"zoneID":"#.utf8)
        writeZoneID(recordID.zoneID, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `encode(stamp:)` written.
    static func writeStamp(_ stamp: ChangeStamp, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"timestamp":"#.utf8)
        out.append(contentsOf: String(stamp.timestamp).utf8)
        out.append(contentsOf: #","userRecordName":"#.utf8)
        JSONValue.writeString(stamp.userRecordName, to: &out)
        out.append(contentsOf: #","deviceID":"#.utf8)
        JSONValue.writeString(stamp.deviceID, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `encode(zoneID:)` written.
    public static func writeZoneID(_ zoneID: ZoneID, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"zoneName":"#.utf8)
        JSONValue.writeString(zoneID.zoneName, to: &out)
        out.append(contentsOf: #","ownerRecordName":"#.utf8)
        JSONValue.writeString(zoneID.ownerRecordName, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}

extension JSONValue {
    /// Appends `serialized()` to `out` as UTF-8.
    public func write(to out: inout [UInt8]) {
        writeCompact(to: &out)
    }
}
