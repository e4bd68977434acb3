import CloudSyncService
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

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

    /// `entryParts` as bytes.
    static let entryPartBytes: (head: [UInt8], tail: [UInt8]) = (Array(entryParts.head.utf8), Array(entryParts.tail.utf8))

    /// The entry (`"CD_editedAt":{…}`) for `edited`, as UTF-8 bytes in one allocation.
    static func entryBytes(_ edited: Int64) -> [UInt8] {
        let (head, tail) = entryPartBytes
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.count + 20 + tail.count)
        bytes.append(contentsOf: head)
        bytes.append(contentsOf: String(edited).utf8)
        bytes.append(contentsOf: tail)
        return bytes
    }

    /// The stored JSON of `fields` (`{…}` as `RecordJSON.encode(fields:)` writes it) with the
    /// edit time added, without encoding the fields again: a push caches what it saved, and
    /// the local row already holds the rest of it as text.
    static func adding(_ edited: Int64, toJSON json: String) -> String {
        let entry = entryBytes(edited)
        var json = json
        return json.withUTF8 { text in
            // `{}` or no object: the entry alone.
            let isEmptyObject = text.count == 2 && text[1] == UInt8(ascii: "}")
            let rest = !text.isEmpty && text[0] == UInt8(ascii: "{") && !isEmptyObject ? UnsafeBufferPointer(rebasing: text[1...]) : nil
            return String(unsafeUninitializedCapacity: entry.count + 2 + (rest?.count ?? 0)) { out in
                out[0] = UInt8(ascii: "{")
                var end = 1 + entry.withUnsafeBufferPointer { UnsafeMutableBufferPointer(rebasing: out[1...]).initialize(from: $0).1 }
                if let rest {
                    out[end] = UInt8(ascii: ",")
                    end += 1 + UnsafeMutableBufferPointer(rebasing: out[(end + 1)...]).initialize(from: rest).1
                } else {
                    out[end] = UInt8(ascii: "}")
                    end += 1
                }
                return end
            }
        }
    }

    /// The stored JSON of a record's fields without its edit-time entry (`edited`), or nil when
    /// the text does not hold that exact entry: a pull writes the local row from the cache's
    /// text instead of encoding the fields again. Only the key can match: inside a string value
    /// every quote is escaped. The entry is looked for as `{entry,`, then `,entry,`, then
    /// `,entry}` (the first place each occurs, in one pass over the text), or as the whole `{entry}`.
    static func removing(_ edited: Int64, fromJSON json: String) -> String? {
        let entry = entryBytes(edited)
        var json = json
        return json.withUTF8 { text -> String? in
            let n = text.count, e = entry.count
            guard let base = text.baseAddress, n >= e + 2 else { return nil }
            if n == e + 2, text[0] == UInt8(ascii: "{"), text[n - 1] == UInt8(ascii: "}"),
               entry.withUnsafeBytes({ memcmp(base + 1, $0.baseAddress!, e) }) == 0 { return "{}" }
            // The first occurrence of each form: the one with an opening brace, a comma on both
            // sides, a closing brace.
            var first: [Int?] = [nil, nil, nil]
            var from = 1
            while from + e < n, first[0] == nil,
                  let hit = memchr(base + from, Int32(entry[0]), n - e - from) {
                let p = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
                from = p + 1
                guard entry.withUnsafeBytes({ memcmp(base + p, $0.baseAddress!, e) }) == 0 else { continue }
                let before = text[p - 1], after = text[p + e]
                let form = before == UInt8(ascii: "{") && after == UInt8(ascii: ",") ? 0
                    : before == UInt8(ascii: ",") && after == UInt8(ascii: ",") ? 1
                    : before == UInt8(ascii: ",") && after == UInt8(ascii: "}") ? 2 : nil
                if let form, first[form] == nil { first[form] = p }
            }
            guard let form = first.firstIndex(where: { $0 != nil }), let p = first[form] else { return nil }
            // The form's three bytes (the entry and its two neighbours) become one.
            let kept: UInt8 = form == 0 ? UInt8(ascii: "{") : form == 1 ? UInt8(ascii: ",") : UInt8(ascii: "}")
            return String(unsafeUninitializedCapacity: n - e - 1) { out in
                var end = UnsafeMutableBufferPointer(rebasing: out[..<(p - 1)]).initialize(from: UnsafeBufferPointer(rebasing: text[..<(p - 1)])).1
                out[end] = kept
                end += 1
                end += UnsafeMutableBufferPointer(rebasing: out[end...]).initialize(from: UnsafeBufferPointer(rebasing: text[(p + e + 1)...])).1
                return end
            }
        }
    }
}
