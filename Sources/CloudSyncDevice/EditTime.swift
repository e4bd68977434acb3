import CloudSyncCloud
import CloudSyncCore

/// When a record's content was last edited on a device, carried in the cloud record as the
/// reserved field `CD_editedAt` (TIMESTAMP, milliseconds).
///
/// The cloud's own modification time is when a version was *saved* there: an edit made offline
/// and pushed late would look newer than an edit made after it on another device and pushed
/// at once. Merges ("newer wins") compare edit times instead; a record saved without the field
/// (by `record save`, or by an older cloudsync) falls back to the cloud's modification time.
/// The field never reaches the local model: the synchronizer adds it on push and strips it on
/// pull.
public enum EditTime {
    /// The reserved field name.
    public static let field = ServiceRules.editTimeField

    /// `record` without the edit-time field, and the edit time (the field, else the cloud's
    /// modification time, else nil).
    public static func split(_ record: Record) -> (record: Record, edited: Int64?) {
        var stripped = record
        if case .timestamp(let edited)? = stripped.fields.removeValue(forKey: field) {
            return (stripped, edited)
        }
        return (stripped, record.system?.modified.timestamp)
    }

    /// `fields` with the edit time added.
    static func adding(_ edited: Int64, to fields: [String: FieldValue]) -> [String: FieldValue] {
        var fields = fields
        fields[field] = .timestamp(edited)
        return fields
    }

    /// The field's entry as `RecordJSON.encode(fields:)` writes it, split around the time.
    static let entryParts: (head: String, tail: String) = {
        let sample = RecordJSON.fieldsText([field: .timestamp(0)])
        let entry = String(sample.dropFirst().dropLast())
        let cut = entry.firstRange(of: ":0,")!
        return (String(entry[..<cut.lowerBound]) + ":", String(entry[entry.index(after: cut.lowerBound)...].dropFirst()))
    }()

    /// The entry (`"CD_editedAt":{…}`) for `edited`.
    static func entry(_ edited: Int64) -> String { entryParts.head + String(edited) + entryParts.tail }

    /// The stored JSON of `fields` (`{…}` as `RecordJSON.encode(fields:)` writes it) with the
    /// edit time added, without encoding the fields again: a push caches what it saved, and
    /// the local row already holds the rest of it as text.
    static func adding(_ edited: Int64, toJSON json: String) -> String {
        guard json != "{}", json.hasPrefix("{") else { return "{" + entry(edited) + "}" }
        return "{" + entry(edited) + "," + json.dropFirst()
    }

    /// The stored JSON of a record's fields without its edit-time entry (`edited`), or nil when
    /// the text does not hold that exact entry: a pull writes the local row from the cache's
    /// text instead of encoding the fields again. Only the key can match: inside a string value
    /// every quote is escaped.
    static func removing(_ edited: Int64, fromJSON json: String) -> String? {
        let entry = entry(edited)
        if json == "{" + entry + "}" { return "{}" }
        let text = Array(json.utf8)
        for (pattern, replacement) in [("{" + entry + ",", "{"), ("," + entry + ",", ","), ("," + entry + "}", "}")] {
            let bytes = Array(pattern.utf8)
            if let start = firstIndex(of: bytes, in: text) {
                return String(decoding: text[..<start] + Array(replacement.utf8) + text[(start + bytes.count)...], as: UTF8.self)
            }
        }
        return nil
    }

    /// Where `pattern` first occurs in `text` (a plain byte scan: the standard library's generic
    /// `firstRange(of:)` over the UTF-8 view made a pull of 100,000 records 20 % slower).
    static func firstIndex(of pattern: [UInt8], in text: [UInt8]) -> Int? {
        guard !pattern.isEmpty, pattern.count <= text.count else { return nil }
        for start in 0...(text.count - pattern.count) where text[start] == pattern[0] {
            if text[start..<start + pattern.count].elementsEqual(pattern) { return start }
        }
        return nil
    }
}
