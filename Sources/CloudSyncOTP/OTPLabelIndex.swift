#if canImport(Glibc)
import Glibc
#endif
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
    static let header = "otp-label-index 2"
    /// The name field of a token named `issuer:account` (most are): one byte 0x01, which
    /// `escape` never leaves raw. It keeps the index about a third smaller.
    static let pairName: UInt8 = 1

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

    // MARK: Text form: a header line, then `record\tname\tissuer\taccount` lines (escaped; a
    // name that is `issuer:account` is the single byte 0x01).

    func serialized() -> String {
        var text = OTPLabelIndex.header + "\t" + String(lastTransaction) + "\n"
        for entry in sorted {
            let labels = entry.labels
            let isPair = !labels.issuer.isEmpty && !labels.account.isEmpty && labels.name == labels.issuer + ":" + labels.account
            let name = isPair ? String(UnicodeScalar(OTPLabelIndex.pairName)) : OTPLabelIndex.escape(labels.name)
            text += [OTPLabelIndex.escape(entry.recordName), name, OTPLabelIndex.escape(labels.issuer),
                     OTPLabelIndex.escape(labels.account)].joined(separator: "\t") + "\n"
        }
        return text
    }

    /// Parses the text form.
    static func parse(_ text: String) -> OTPLabelIndex? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Parses the text form's bytes.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> OTPLabelIndex? {
        var index = OTPLabelIndex()
        let complete = scan(bytes) { index.lastTransaction = $0 } entry: { index.entries.append($0.entry()) }
        return complete ? index : nil
    }

    /// The last transaction the text form reflects, read from its header alone.
    static func lastTransaction(ofSerialized bytes: UnsafeRawBufferPointer) -> Int64? {
        var last: Int64?
        _ = scan(bytes, headerOnly: true) { last = $0 } entry: { _ in }
        return last
    }

    /// The same from the text form as a String.
    static func lastTransaction(ofSerialized text: String) -> Int64? {
        var text = text
        return text.withUTF8 { lastTransaction(ofSerialized: UnsafeRawBufferPointer($0)) }
    }

    /// `match(_:inSerialized:)` on the text form as a String.
    static func match(_ query: String, inSerialized text: String) -> OTPQueryResult<Entry>? {
        var text = text
        return text.withUTF8 { match(query, inSerialized: UnsafeRawBufferPointer($0)) }
    }

    /// Finds the token `query` means (see `OTPQuery`) straight from the text form: each line's
    /// labels are compared where they lie, and only the entries that match become strings.
    /// This is what `otp code QUERY` runs. Nil when the text is malformed.
    static func match(_ query: String, inSerialized bytes: UnsafeRawBufferPointer) -> OTPQueryResult<Entry>? {
        guard !query.isEmpty else { return OTPQueryResult.none }
        var q = OTPQuery.Text(query)
        var hits = OTPQuery.Hits<Entry>()
        var scratch: [UInt8] = []
        let visit: (Line) -> Void = { line in
            if line.escaped {
                var labelsQuery = q
                labelsQuery.labelsAreASCII = false
                let entry = line.entry()
                hits.add(entry, rule: labelsQuery.firstRule(name: entry.labels.name, issuer: entry.labels.issuer,
                                                            account: entry.labels.account, through: hits.best))
                return
            }
            let rule: Int?
            if line.nameIsPair && !q.hasColon {
                // A query without ':' cannot equal `issuer:account`, and a part of it lies within
                // the issuer or the account, which are compared anyway: the name adds nothing.
                rule = q.firstRule(name: UnsafeBufferPointer(start: nil, count: 0), issuer: line.issuer, account: line.account,
                                   through: hits.best)
            } else {
                rule = line.withName(scratch: &scratch) { name in
                    q.firstRule(name: name, issuer: line.issuer, account: line.account, through: hits.best)
                }
            }
            if let rule { hits.add(line.entry(), rule: rule) }
        }
        // Only lines that hold the query can fit when it has no ':' (see `OTPQuery.Text.spansOneLabel`).
        // One pass over the entry lines checks their shape and tells whether they are ASCII.
        if q.spansOneLabel, let body = Body(bytes) {
            q.labelsAreASCII = body.shape.isASCII
            if body.shape.isASCII, body.isWellFormed, let complete = scanCandidates(body, holding: q.folded, entry: visit) {
                return complete ? hits.result : nil
            }
        } else if let start = bytes.baseAddress {
            // One check of the whole text spares a check of every label.
            q.labelsAreASCII = TextShape(start.assumingMemoryBound(to: UInt8.self), bytes.count).isASCII
        }
        hits = OTPQuery.Hits<Entry>()
        return scan(bytes, header: { _ in }, entry: visit) ? hits.result : nil
    }

    /// One entry line of the text form where its bytes lie: the four fields, still escaped.
    struct Line {
        let recordName, name, issuer, account: UnsafeBufferPointer<UInt8>
        /// Whether a field has an escape (a backslash).
        let escaped: Bool

        /// The name is `issuer:account` (written as the 0x01 marker).
        var nameIsPair: Bool { name.count == 1 && name[0] == OTPLabelIndex.pairName }

        func entry() -> Entry {
            func field(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
                let text = String(decoding: bytes, as: UTF8.self)
                return escaped ? unescape(text[...]) : text
            }
            let issuer = field(issuer), account = field(account)
            return Entry(recordName: field(recordName),
                         labels: OTPQuery.Labels(name: nameIsPair ? issuer + ":" + account : field(name), issuer: issuer,
                                                 account: account))
        }

        /// Calls `body` with the name's bytes (`issuer:account` spelled out into `scratch` when
        /// the name is the marker).
        func withName<R>(scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            guard nameIsPair else { return body(name) }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: issuer)
            scratch.append(58)
            scratch.append(contentsOf: account)
            return scratch.withUnsafeBufferPointer(body)
        }
    }

    /// Walks the text form a line at a time (memchr finds the line and field ends): `header`
    /// gets the header's transaction, `entry` each entry line. Empty lines are skipped. False
    /// when the text is malformed.
    private static func scan(_ raw: UnsafeRawBufferPointer, headerOnly: Bool = false, header readHeader: (Int64) -> Void,
                             entry: (Line) -> Void) -> Bool {
        guard let start = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { return false }
        let count = raw.count
        // Escapes are rare: one search of the whole text spares the per-line check.
        let mayHaveEscapes = memchr(start, 92, count) != nil
        var fields = noFields
        var fieldCount = 0
        var position = 0
        var headerRead = false
        while position < count {
            let lineStart = start + position
            let lineEnd = memchr(lineStart, 10, count - position).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
                ?? start + count
            position = lineEnd - start + 1
            fieldCount = split(lineStart, lineEnd, into: &fields)
            if !headerRead {
                guard let last = headerTransaction(fields, count: fieldCount) else { return false }
                readHeader(last)
                headerRead = true
                if headerOnly { return true }
            } else if fieldCount == 4 {
                let escaped = mayHaveEscapes && memchr(lineStart, 92, lineEnd - lineStart) != nil
                entry(Line(recordName: fields.0, name: fields.1, issuer: fields.2, account: fields.3, escaped: escaped))
            } else if !(fieldCount == 1 && fields.0.isEmpty) {
                return false
            }
        }
        return headerRead
    }

    /// The four fields of a line, without an array.
    typealias Fields = (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>)
    static var noFields: Fields {
        (UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0),
         UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0))
    }

    /// Splits the line `[lineStart, lineEnd)` at tabs into `fields` and returns how many fields
    /// it has, counting up to five (a fifth already makes a line malformed).
    static func split(_ lineStart: UnsafePointer<UInt8>, _ lineEnd: UnsafePointer<UInt8>, into fields: inout Fields) -> Int {
        var fieldCount = 0
        var fieldStart = lineStart
        while fieldCount < 5 {
            let tab = memchr(fieldStart, 9, lineEnd - fieldStart).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
            let field = UnsafeBufferPointer(start: fieldStart, count: (tab ?? lineEnd) - fieldStart)
            switch fieldCount {
            case 0: fields.0 = field
            case 1: fields.1 = field
            case 2: fields.2 = field
            case 3: fields.3 = field
            default: break
            }
            fieldCount += 1
            guard let tab else { break }
            fieldStart = tab + 1
        }
        return fieldCount
    }

    /// The transaction of a header line split into `count` fields; nil when it is not this
    /// format's header.
    static func headerTransaction(_ fields: Fields, count: Int) -> Int64? {
        guard count == 2, fields.0.elementsEqual(header.utf8) else { return nil }
        return Int64(String(decoding: fields.1, as: UTF8.self))
    }

    /// The entry lines of a text form whose header is right, and their shape.
    struct Body {
        let text: UnsafePointer<UInt8>
        let count: Int
        let shape: TextShape

        /// Nil when the text has no header line or the header is not this format's.
        init?(_ raw: UnsafeRawBufferPointer) {
            guard let start = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                  let headerEnd = memchr(start, 10, raw.count).map({ UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) })
            else { return nil }
            var fields = OTPLabelIndex.noFields
            let headerCount = OTPLabelIndex.split(start, headerEnd, into: &fields)
            guard OTPLabelIndex.headerTransaction(fields, count: headerCount) != nil else { return nil }
            text = headerEnd + 1
            count = start + raw.count - text
            shape = TextShape(text, count)
        }

        /// Three tabs to every line break, and a break ending the text: every line is an
        /// entry of four fields (an empty line makes it false; `scan` then tells).
        var isWellFormed: Bool { shape.tabs == 3 * shape.breaks && (count == 0 || text[count - 1] == 10) }
    }

    /// `scan` for a query that fits only lines holding `needle` (the query case folded, ASCII),
    /// over a well-formed `body`: the text is searched for the needle's rarest byte in either
    /// case (memchr), and only the lines where the whole needle lies are split and passed to
    /// `entry`, in text order. Lines that do not hold the needle are not split: the body's
    /// shape stands for their check. False when a line it visits is malformed; nil for an empty
    /// needle, which a query never gives: the guard is what lets the compiler drop the bounds
    /// checks of the pivot loop (without it `otp code` ran 1 % more instructions).
    private static func scanCandidates(_ body: Body, holding needle: [UInt8], entry: (Line) -> Void) -> Bool? {
        guard !needle.isEmpty else { return nil }
        let text = body.text, count = body.count
        var fields = noFields
        let mayHaveEscapes = memchr(text, 92, count) != nil
        let pivot = OTPQuery.Text.rarestByte(in: needle)
        // The pivot in both cases: a letter is looked for as itself and as its capital.
        var pivots = PivotSearch(text: text, count: count, byte: needle[pivot])
        var from = pivot
        while let hit = pivots.next(from: from) {
            let found = hit - pivot
            guard found + needle.count <= count, OTPQuery.Text.equalsFolded(text + found, needle) else {
                from = hit + 1
                continue
            }
            var lineStart = found
            while lineStart > 0 && text[lineStart - 1] != 10 { lineStart -= 1 }
            let lineEnd = memchr(text + found, 10, count - found).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - text }
                ?? count
            guard split(text + lineStart, text + lineEnd, into: &fields) == 4 else { return false }
            let escaped = mayHaveEscapes && memchr(text + lineStart, 92, lineEnd - lineStart) != nil
            entry(Line(recordName: fields.0, name: fields.1, issuer: fields.2, account: fields.3, escaped: escaped))
            from = lineEnd + 1 + pivot
        }
        return true
    }

    /// The offsets of one folded byte in a text, in order, whichever its case: one memchr
    /// search per case, each resumed only once the other has passed it.
    private struct PivotSearch {
        let text: UnsafePointer<UInt8>, count: Int
        let lower: Int32, upper: Int32?
        /// The next offset of each case at or after the last `from` (count when there is none).
        private var nextLower = -1, nextUpper = -1

        init(text: UnsafePointer<UInt8>, count: Int, byte: UInt8) {
            self.text = text
            self.count = count
            lower = Int32(byte)
            upper = byte >= 97 && byte <= 122 ? Int32(byte - 32) : nil
        }

        /// The first offset at or after `from`.
        mutating func next(from: Int) -> Int? {
            if nextLower < from { nextLower = find(lower, from) }
            if let upper, nextUpper < from { nextUpper = find(upper, from) }
            let next = upper == nil ? nextLower : min(nextLower, nextUpper)
            return next < count ? next : nil
        }

        private func find(_ byte: Int32, _ from: Int) -> Int {
            guard from < count, let hit = memchr(text + from, byte, count - from) else { return count }
            return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - text
        }
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 || $0 == 92 || $0 == pairName }) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\u{1}": out += "\\1"
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
                case "1": out += "\u{1}"
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
    /// Finds the token `query` means in the label index. When nothing happened since the index
    /// was written (the common case), it is matched where SQLite holds its bytes, unparsed.
    func matchLabelIndex(_ query: String) throws(CloudError) -> OTPQueryResult<OTPLabelIndex.Entry>? {
        var current = true
        let result = try store.withSyncStateBytes(container: container, OTPLabelIndex.key) {
            bytes, latest -> OTPQueryResult<OTPLabelIndex.Entry>? in
            guard let bytes, let last = OTPLabelIndex.lastTransaction(ofSerialized: bytes), latest <= last else {
                current = false
                return nil
            }
            return OTPLabelIndex.match(query, inSerialized: bytes)
        }
        if current { return result }
        return OTPLabelIndex.match(query, inSerialized: try labelIndex().serialized())
    }

    /// The label index, brought up to date with the store's history (and saved when it changed).
    public func labelIndex() throws(CloudError) -> OTPLabelIndex {
        let stored = try store.withSyncStateBytes(container: container, OTPLabelIndex.key) { value, _ in value.flatMap(OTPLabelIndex.parse) }
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
