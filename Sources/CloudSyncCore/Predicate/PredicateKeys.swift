/// The system keys a predicate or a sort may name besides the record's own fields.
///
/// They take precedence over a user field of the same name (CloudKit reserves these names).
public enum PredicateKeys {
    /// The record's name, compared as a STRING.
    public static let recordName = "recordName"
    /// The creation time from the system fields, a TIMESTAMP in ms; missing until saved.
    public static let creationDate = "creationDate"
    /// The last modification time from the system fields, a TIMESTAMP in ms; missing until saved.
    public static let modificationDate = "modificationDate"

    /// The whole record, in `self CONTAINS 'word'` (token search over SEARCHABLE fields). No
    /// record field can have this name unescaped; on its own a record has no value for it.
    public static let selfKey = "self"

    /// Apple's names of the system fields (the schema's and the Web Services' `fieldName`s):
    /// `___createTime` and `___modTime` are `creationDate` and `modificationDate`,
    /// `___recordID` is `recordName`, `___createdBy` and `___modifiedBy` the user record names
    /// of the creator and the last modifier (REFERENCE, compared by record name).
    public static let createTime = "___createTime"
    /// See `createTime`.
    public static let modTime = "___modTime"
    /// See `createTime`.
    public static let recordID = "___recordID"
    /// See `createTime`.
    public static let createdBy = "___createdBy"
    /// See `createTime`.
    public static let modifiedBy = "___modifiedBy"

    /// The system fields a query may name by Apple's `___` names.
    public static let appleSystemFields: [String] = [createTime, modTime, recordID, createdBy, modifiedBy]

    /// The system keys that hold a TIMESTAMP: a comparison with a value that is not a time can
    /// match nothing, so it is refused (`Predicate.validateSystemKeys`).
    public static let timestampKeys: Set<String> = [creationDate, modificationDate, createTime, modTime]

    /// All system keys.
    public static let all: Set<String> = Set([recordName, creationDate, modificationDate] + appleSystemFields)
}

extension Record {
    /// The value a predicate or a sort sees for `key`: a system key (see ``PredicateKeys``) or
    /// the user field of that name; nil when the record has no such value.
    public func queryValue(forKey key: String) -> FieldValue? {
        switch key {
        case PredicateKeys.recordName: .string(recordID.recordName)
        case PredicateKeys.creationDate: system.map { .timestamp($0.created.timestamp) }
        case PredicateKeys.modificationDate: system.map { .timestamp($0.modified.timestamp) }
        case PredicateKeys.createTime: system.map { .timestamp($0.created.timestamp) }
        case PredicateKeys.modTime: system.map { .timestamp($0.modified.timestamp) }
        case PredicateKeys.recordID: .string(recordID.recordName)
        case PredicateKeys.createdBy: system.map { .string($0.created.userRecordName) }
        case PredicateKeys.modifiedBy: system.map { .string($0.modified.userRecordName) }
        default: fields[key]
        }
    }
}
