import CloudSyncCore
import CloudSyncDevice

/// A compact copy of every token's labels (record name, name, issuer, account) kept in the
/// store's sync state, so that `otp code QUERY` finds its token without decoding every record.
/// It remembers the last history transaction it reflects: every change to the local store
/// (this tool's, `store put`, or a sync) is a history transaction, so an index with nothing
/// newer in history is exact, and a stale one is brought up to date from the transactions
/// after it, re-reading only the records they touched.
public struct OTPLabelIndex: Sendable, Equatable {
    /// One token of the index.
    public struct Entry: Sendable, Equatable {
        /// The record of the token.
        public var recordName: String
        /// Its name, issuer and account.
        public var labels: OTPQuery.Labels

        /// An entry.
        public init(recordName: String, labels: OTPQuery.Labels) {
            self.recordName = recordName
            self.labels = labels
        }
    }

    /// The sync-state key it is kept under.
    static let key = "otp.label-index"
    static let header = "otp-label-index 1"

    /// The last history transaction reflected.
    public var lastTransaction: Int64
    /// The entries, in the order they were written (name order after an update).
    public var entries: [Entry]

    /// An index (empty by default: it then reflects nothing).
    public init(lastTransaction: Int64 = 0, entries: [Entry] = []) {
        self.lastTransaction = lastTransaction
        self.entries = entries
    }

    /// The entries in name order.
    public var sorted: [Entry] {
        entries.sorted { ($0.labels.name, $0.recordName) < ($1.labels.name, $1.recordName) }
    }

    /// Sets the entries of records to new labels, or removes them (nil labels).
    mutating func apply(_ updates: [String: OTPQuery.Labels?]) {
        guard !updates.isEmpty else { return }
        var pending = updates
        entries = entries.compactMap { entry in
            guard let update = pending.removeValue(forKey: entry.recordName) else { return entry }
            return update.map { Entry(recordName: entry.recordName, labels: $0) }
        }
        for (name, labels) in pending.sorted(by: { $0.key < $1.key }) {
            if let labels { entries.append(Entry(recordName: name, labels: labels)) }
        }
    }

    // MARK: Text form: a header line, then `record\tname\tissuer\taccount` lines.

    func serialized() -> String {
        var text = OTPLabelIndex.header + "\t" + String(lastTransaction) + "\n"
        for entry in sorted {
            text += [entry.recordName, entry.labels.name, entry.labels.issuer, entry.labels.account].map(OTPLabelIndex.escape)
                .joined(separator: "\t") + "\n"
        }
        return text
    }

    /// Parses the text form, byte by byte (this runs on every `otp code`).
    static func parse(_ text: String) -> OTPLabelIndex? {
        var text = text
        return text.withUTF8 { bytes -> OTPLabelIndex? in
            var fields: [String] = []
            fields.reserveCapacity(4)
            var index = OTPLabelIndex()
            var start = 0
            var headerRead = false
            // Set when the current field has a backslash (an escape), found in the same scan.
            var escaped = false
            for position in 0...bytes.count {
                let byte: UInt8 = position < bytes.count ? bytes[position] : 10
                guard byte == 9 || byte == 10 else {
                    if byte == 92 { escaped = true }
                    continue
                }
                let field = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                fields.append(escaped ? unescape(field[...]) : field)
                escaped = false
                start = position + 1
                guard byte == 10 else { continue }
                defer { fields.removeAll(keepingCapacity: true) }
                if !headerRead {
                    guard fields.count == 2, fields[0] == header, let last = Int64(fields[1]) else { return nil }
                    index.lastTransaction = last
                    headerRead = true
                } else if fields.count == 4 {
                    index.entries.append(Entry(recordName: fields[0],
                                               labels: OTPQuery.Labels(name: fields[1], issuer: fields[2], account: fields[3])))
                } else if !(fields.count == 1 && fields[0].isEmpty) {
                    return nil
                }
            }
            return headerRead ? index : nil
        }
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 || $0 == 92 }) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func unescape(_ text: Substring) -> String {
        guard text.utf8.contains(92) else { return String(text) }
        var out = ""
        var escaping = false
        for c in text.unicodeScalars {
            if escaping {
                switch c {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.unicodeScalars.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension OTPTokenStore {
    /// The label index, brought up to date with the store's history (and saved when it changed).
    public func labelIndex() throws(CloudError) -> OTPLabelIndex {
        let stored = try store.syncState(container: container, OTPLabelIndex.key).flatMap(OTPLabelIndex.parse)
        var index = stored ?? OTPLabelIndex()
        var changed = stored == nil
        var touched = Set<String>()
        // Transactions after the index: the records they touched are read again. A new index
        // starts from every token record.
        while true {
            let page = try store.history(container: container, since: index.lastTransaction, limit: 1000)
            guard let last = page.last else { break }
            for transaction in page {
                for change in transaction.changes
                where change.zoneName == OTPTokenStore.zoneName && change.recordType == OTPRecordFields.recordType {
                    touched.insert(change.recordName)
                }
            }
            index.lastTransaction = last.id
            changed = true
        }
        if stored == nil {
            index.entries = try store.localRecords(container: container, type: OTPRecordFields.recordType, zone: OTPTokenStore.zoneName)
                .map { OTPLabelIndex.Entry(recordName: $0.recordName, labels: OTPRecordFields.labels($0.fields)) }
        } else {
            var updates: [String: OTPQuery.Labels?] = [:]
            for name in touched {
                let record = try store.localRecord(container: container, zone: OTPTokenStore.zoneName, name: name)
                updates[name] = .some(record.flatMap { $0.recordType == OTPRecordFields.recordType ? OTPRecordFields.labels($0.fields) : nil })
            }
            index.apply(updates)
        }
        if changed { try store.setSyncState(container: container, OTPLabelIndex.key, index.serialized()) }
        return index
    }

    /// Forgets the label index (the next lookup rebuilds it from the records).
    public func dropLabelIndex() throws(CloudError) {
        try store.setSyncState(container: container, OTPLabelIndex.key, nil)
    }
}
