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

    /// All system keys.
    public static let all: Set<String> = [recordName, creationDate, modificationDate]
}

extension Record {
    /// The value a predicate or a sort sees for `key`: a system key (see ``PredicateKeys``) or
    /// the user field of that name; nil when the record has no such value.
    public func queryValue(forKey key: String) -> FieldValue? {
        switch key {
        case PredicateKeys.recordName: .string(recordID.recordName)
        case PredicateKeys.creationDate: system.map { .timestamp($0.created.timestamp) }
        case PredicateKeys.modificationDate: system.map { .timestamp($0.modified.timestamp) }
        default: fields[key]
        }
    }
}
