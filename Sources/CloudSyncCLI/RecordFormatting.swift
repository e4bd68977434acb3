import CloudSyncCore

/// Human renderings of records and field values, shared by every command that prints records.
/// `describe` gives a value as it is; what it returns is printed through `TerminalText` or
/// `Output.table`, which escape it. `fieldSummary` and `block` escape names and values themselves.
public enum RecordFormatting {
    /// A field value as a person reads it: strings as they are, timestamps in ISO 8601, bytes
    /// as a size, lists bracketed.
    public static func describe(_ value: FieldValue) -> String {
        switch value {
        case .string(let s): return s
        case .int64(let i): return String(i)
        case .double(let d): return d.description
        case .timestamp(let ms): return ISO8601.format(milliseconds: ms)
        case .bytes(let b): return b.count <= 24 ? "base64:" + Base64.encode(b) : "<\(b.count) bytes>"
        case .reference(let r):
            return "→\(r.recordID.recordName)" + (r.action == .deleteSelf ? " (delete-self)" : "")
        case .location(let l): return "\(l.latitude),\(l.longitude)"
        case .asset(let a): return "asset \(a.checksum) (\(a.size) bytes)"
        case .encryptedBytes(let b): return "<encrypted, \(b.count) bytes>"
        case .list(_, let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        }
    }

    /// `name=value` pairs in field-name order, on one line: names and values are escaped
    /// (`TerminalEscaping.escapeValue`). Never cut here: a terminal's width is applied by
    /// `Output.fitted` or `Output.table(_:_:fitting:)`, and piped text stays whole.
    public static func fieldSummary(_ record: Record) -> String {
        record.fields.sorted { $0.key < $1.key }
            .map { TerminalEscaping.escapeValue($0.key) + "=" + TerminalEscaping.escapeValue(describe($0.value)) }
            .joined(separator: " ")
    }

    /// A multi-line block, as `record get` prints it; names and values are escaped when printed.
    public static func block(_ record: Record) -> [TerminalText] {
        var lines: [TerminalText] = ["record \(record.recordID.recordName)",
                                     "type:       \(record.recordType)",
                                     "zone:       \(record.recordID.zoneID.zoneName)"]
        if let system = record.system {
            lines.append("change tag: \(system.changeTag)")
            lines.append("created:    \(ISO8601.format(milliseconds: system.created.timestamp)) by \(system.created.deviceID)")
            lines.append("modified:   \(ISO8601.format(milliseconds: system.modified.timestamp)) by \(system.modified.deviceID)")
        }
        if record.fields.isEmpty {
            lines.append("(no fields)")
        } else {
            lines.append("fields:")
            let fields = record.fields.sorted(by: { $0.key < $1.key }).map { (TerminalEscaping.escapeValue($0.key), $0.value) }
            let width = fields.map(\.0.count).max() ?? 0
            for (name, value) in fields {
                let pad = String(repeating: " ", count: width - name.count)
                lines.append("  \(name)\(pad)  \(value.typeName)  \(describe(value))")
            }
        }
        return lines
    }
}
