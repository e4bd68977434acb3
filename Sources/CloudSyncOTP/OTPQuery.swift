/// The outcome of looking a token up by a query.
public enum OTPQueryResult<Item> {
    case match(Item)
    case none
    /// Several tokens fit equally well: the candidates.
    case ambiguous([Item])
}

/// How `otp code QUERY` finds a token. In order, the first rule that fits anything decides:
/// the exact name; the exact `issuer:account`; the exact issuer; the same three ignoring case;
/// then a case-insensitive substring of the name, issuer or account. A rule that fits several
/// tokens makes the query ambiguous.
public enum OTPQuery {
    /// The labels a query looks at.
    public struct Labels: Sendable, Hashable {
        /// The token's name.
        public var name: String
        /// The service, possibly empty.
        public var issuer: String
        /// The account at the service, possibly empty.
        public var account: String

        /// The labels of a token.
        public init(name: String, issuer: String, account: String) {
            self.name = name
            self.issuer = issuer
            self.account = account
        }
    }

    /// How many rules there are (rule numbers are 0 ..< ruleCount, in the order they are tried).
    static let ruleCount = 7

    /// Finds the token `query` means among `items`.
    public static func match<Item>(_ query: String, in items: [Item], labels: (Item) -> Labels) -> OTPQueryResult<Item> {
        guard !query.isEmpty else { return .none }
        let q = Text(query)
        var hits = Hits<Item>()
        for item in items {
            let l = labels(item)
            hits.add(item, rule: q.firstRule(name: l.name, issuer: l.issuer, account: l.account, through: hits.best))
        }
        return hits.result
    }

    /// The items of the first rule that fits anything so far: an item's first fitting rule is
    /// all that is needed, since the rule that decides is the lowest of them.
    struct Hits<Item> {
        /// Rules after this one no longer matter.
        private(set) var best = OTPQuery.ruleCount - 1
        private var found = false
        private var items: [Item] = []

        mutating func add(_ item: Item, rule: Int?) {
            guard let rule else { return }
            if !found || rule < best {
                best = rule
                found = true
                items.removeAll(keepingCapacity: true)
            }
            items.append(item)
        }

        var result: OTPQueryResult<Item> {
            switch items.count {
            case 0: .none
            case 1: .match(items[0])
            default: .ambiguous(items)
            }
        }
    }

    /// The query, prepared for many comparisons without allocating per label: ASCII text is
    /// compared byte by byte (case folded for ASCII letters); anything else falls back to
    /// `lowercased()`.
    struct Text {
        let text: String
        let bytes: [UInt8]
        let folded: [UInt8]
        let loweredText: String
        /// The query has a ':' (only then can it span an `issuer:account` name).
        let hasColon: Bool
        /// Set when every label compared is known to be ASCII (checked once for a whole label
        /// index): the per-label checks are skipped.
        var labelsAreASCII = false

        init(_ text: String) {
            self.text = text
            bytes = Array(text.utf8)
            loweredText = text.lowercased()
            folded = Array(loweredText.utf8)
            hasColon = bytes.contains(UInt8(ascii: ":"))
        }

        /// The first rule, up to `limit`, that labels fit; nil when none does.
        func firstRule(name: String, issuer: String, account: String, through limit: Int) -> Int? {
            var name = name, issuer = issuer, account = account
            return name.withUTF8 { n in
                issuer.withUTF8 { i in account.withUTF8 { a in firstRule(name: n, issuer: i, account: a, through: limit) } }
            }
        }

        /// The first rule, up to `limit`, that the labels' UTF-8 bytes fit; nil when none does.
        func firstRule(name: UnsafeBufferPointer<UInt8>, issuer: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>,
                       through limit: Int) -> Int? {
            for rule in 0...min(limit, OTPQuery.ruleCount - 1) {
                let fits: Bool = switch rule {
                case 0: equals(name)
                case 1: equalsPair(issuer, account, caseless: false)
                case 2: !issuer.isEmpty && equals(issuer)
                case 3: equalsCaseless(name)
                case 4: equalsPair(issuer, account, caseless: true)
                case 5: !issuer.isEmpty && equalsCaseless(issuer)
                default: isCaselessPart(of: name) || isCaselessPart(of: issuer) || isCaselessPart(of: account)
                }
                if fits { return rule }
            }
            return nil
        }

        func equals(_ other: UnsafeBufferPointer<UInt8>) -> Bool { other.elementsEqual(bytes) }

        func equalsCaseless(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
            guard labelsAreASCII || Text.isASCII(other) else { return Text.string(other).lowercased() == loweredText }
            guard other.count == folded.count else { return false }
            for index in 0..<other.count where Text.fold(other[index]) != folded[index] { return false }
            return true
        }

        /// `issuer:account` equals the query (both labels present).
        func equalsPair(_ issuer: UnsafeBufferPointer<UInt8>, _ account: UnsafeBufferPointer<UInt8>, caseless: Bool) -> Bool {
            guard !issuer.isEmpty, !account.isEmpty else { return false }
            let issuerCount = issuer.count
            guard issuerCount + 1 + account.count == bytes.count, bytes[issuerCount] == UInt8(ascii: ":") else { return false }
            if caseless {
                guard labelsAreASCII || (Text.isASCII(issuer) && Text.isASCII(account)) else {
                    return (Text.string(issuer) + ":" + Text.string(account)).lowercased() == loweredText
                }
                guard folded.count == bytes.count, folded[issuerCount] == UInt8(ascii: ":") else { return false }
                for index in 0..<issuerCount where Text.fold(issuer[index]) != folded[index] { return false }
                for index in 0..<account.count where Text.fold(account[index]) != folded[issuerCount + 1 + index] { return false }
                return true
            }
            return issuer.elementsEqual(bytes[..<issuerCount]) && account.elementsEqual(bytes[(issuerCount + 1)...])
        }

        func isCaselessPart(of haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            guard haystack.count >= folded.count else { return false }
            guard labelsAreASCII || Text.isASCII(haystack) else {
                return Text.string(haystack).lowercased().contains(loweredText)
            }
            guard let first = folded.first else { return true }
            var start = 0
            while start + folded.count <= haystack.count {
                if Text.fold(haystack[start]) == first {
                    var offset = 1
                    while offset < folded.count && Text.fold(haystack[start + offset]) == folded[offset] { offset += 1 }
                    if offset == folded.count { return true }
                }
                start += 1
            }
            return false
        }

        /// Whether every rule can fit a token only where the query lies within one of its labels,
        /// case folded, as written in the label index: the query is ASCII, has no ':' (which
        /// could span `issuer:account`) and nothing the index escapes (tab, line breaks, '\\',
        /// 0x01). The index's matching then looks only at the lines that hold it.
        var spansOneLabel: Bool {
            !hasColon && bytes.allSatisfy { $0 < 128 && $0 != 9 && $0 != 10 && $0 != 13 && $0 != 92 && $0 != OTPLabelIndex.pairName }
        }

        /// Whether the bytes at `text` are `folded` once ASCII letters are folded to lower case
        /// (`text` holds at least as many bytes).
        static func equalsFolded(_ text: UnsafePointer<UInt8>, _ folded: [UInt8]) -> Bool {
            for index in folded.indices where fold(text[index]) != folded[index] { return false }
            return true
        }

        /// The position of the byte of `needle` (case folded) least likely in labels, to search
        /// for first: letters by their frequency in English, digits in between, punctuation
        /// (the '@' and '.' of every e-mail address) first.
        static func rarestByte(in needle: [UInt8]) -> Int {
            func rank(_ byte: UInt8) -> Int {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): 12
                case UInt8(ascii: "a")...UInt8(ascii: "z"): letterRanks[Int(byte - UInt8(ascii: "a"))]
                default: 0
                }
            }
            var best = 0
            for index in needle.indices.dropFirst() where rank(needle[index]) > rank(needle[best]) { best = index }
            return best
        }

        /// Each letter's rank: 1 for 'e' (the most frequent) up to 26 for 'z'.
        private static let letterRanks: [Int] = {
            var ranks = [Int](repeating: 0, count: 26)
            for (rank, letter) in "etaoinsrhldcumfpgwybvkxjqz".utf8.enumerated() { ranks[Int(letter - UInt8(ascii: "a"))] = rank + 1 }
            return ranks
        }()

        @inline(__always) static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            !bytes.contains { $0 >= 128 }
        }

        static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

        @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
            byte >= 65 && byte <= 90 ? byte + 32 : byte
        }
    }
}
