/// Who changed a record, when, and from which device.
public struct ChangeStamp: Sendable, Hashable {
    /// Milliseconds since the epoch.
    public var timestamp: Int64
    public var userRecordName: String
    public var deviceID: String

    public init(timestamp: Int64, userRecordName: String, deviceID: String) {
        self.timestamp = timestamp
        self.userRecordName = userRecordName
        self.deviceID = deviceID
    }
}

/// The fields the server maintains for a saved record (CKRecord's system fields).
public struct SystemFields: Sendable, Hashable {
    /// Opaque version of the record; changes with every save.
    public var changeTag: String
    public var created: ChangeStamp
    public var modified: ChangeStamp

    public init(changeTag: String, created: ChangeStamp, modified: ChangeStamp) {
        self.changeTag = changeTag
        self.created = created
        self.modified = modified
    }
}

/// A record: its identity, type, user fields and (once saved) system fields.
public struct Record: Sendable, Hashable {
    public var recordID: RecordID
    public var recordType: String
    public var fields: [String: FieldValue]
    /// Nil until the server has saved the record.
    public var system: SystemFields?

    public init(recordID: RecordID, recordType: String, fields: [String: FieldValue] = [:],
                system: SystemFields? = nil) {
        self.recordID = recordID
        self.recordType = recordType
        self.fields = fields
        self.system = system
    }

    /// The change tag from the system fields, if the record has been saved.
    public var changeTag: String? { system?.changeTag }

    /// Estimated encoded size in bytes, for the 1 MB record limit.
    public var estimatedSize: Int {
        fields.reduce(recordType.utf8.count + recordID.recordName.utf8.count) {
            $0 + $1.key.utf8.count + $1.value.estimatedSize
        }
    }

    /// Subscript access to a field.
    public subscript(key: String) -> FieldValue? {
        get { fields[key] }
        set { fields[key] = newValue }
    }
}
