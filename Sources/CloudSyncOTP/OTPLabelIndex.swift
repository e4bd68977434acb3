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
        public var recordName: String
        public var labels: OTPQuery.Labels

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
    /// Record name → entry.
    public var entries: [String: Entry]

    public init(lastTransaction: Int64 = 0, entries: [String: Entry] = [:]) {
        self.lastTransaction = lastTransaction
        self.entries = entries
    }

    /// The entries in name order.
    public var sorted: [Entry] {
        entries.values.sorted { ($0.labels.name, $0.recordName) < ($1.labels.name, $1.recordName) }
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

    static func parse(_ text: String) -> OTPLabelIndex? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard let first = lines.popFirst() else { return nil }
        let head = first.split(separator: "\t", omittingEmptySubsequences: false)
        guard head.count == 2, head[0] == header, let last = Int64(head[1]) else { return nil }
        var index = OTPLabelIndex(lastTransaction: last)
        index.entries.reserveCapacity(lines.count)
        for line in lines {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            let record = unescape(parts[0])
            index.entries[record] = Entry(recordName: record, labels: OTPQuery.Labels(name: unescape(parts[1]), issuer: unescape(parts[2]),
                                                                                      account: unescape(parts[3])))
        }
        return index
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
            index.entries = [:]
            for record in try store.localRecords(container: container, type: OTPRecordFields.recordType, zone: OTPTokenStore.zoneName) {
                index.entries[record.recordName] = OTPLabelIndex.Entry(recordName: record.recordName,
                                                                       labels: OTPRecordFields.labels(record.fields))
            }
        } else {
            for name in touched {
                if let record = try store.localRecord(container: container, zone: OTPTokenStore.zoneName, name: name),
                   record.recordType == OTPRecordFields.recordType {
                    index.entries[name] = OTPLabelIndex.Entry(recordName: name, labels: OTPRecordFields.labels(record.fields))
                } else {
                    index.entries[name] = nil
                }
            }
        }
        if changed { try store.setSyncState(container: container, OTPLabelIndex.key, index.serialized()) }
        return index
    }

    /// Forgets the label index (the next lookup rebuilds it from the records).
    public func dropLabelIndex() throws(CloudError) {
        try store.setSyncState(container: container, OTPLabelIndex.key, nil)
    }
}
