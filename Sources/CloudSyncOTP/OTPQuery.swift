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

    /// Finds the token `query` means among `items`.
    public static func match<Item>(_ query: String, in items: [Item], labels: (Item) -> Labels) -> OTPQueryResult<Item> {
        guard !query.isEmpty else { return .none }
        let all = items.map(labels)
        let q = Text(query)
        let rules: [(Labels) -> Bool] = [
            { q.equals($0.name) },
            { q.equalsPair($0.issuer, $0.account, caseless: false) },
            { !$0.issuer.isEmpty && q.equals($0.issuer) },
            { q.equalsCaseless($0.name) },
            { q.equalsPair($0.issuer, $0.account, caseless: true) },
            { !$0.issuer.isEmpty && q.equalsCaseless($0.issuer) },
            { q.isCaselessPart(of: $0.name) || q.isCaselessPart(of: $0.issuer) || q.isCaselessPart(of: $0.account) },
        ]
        for rule in rules {
            var hits: [Item] = []
            for (index, label) in all.enumerated() where rule(label) { hits.append(items[index]) }
            if hits.count == 1 { return .match(hits[0]) }
            if hits.count > 1 { return .ambiguous(hits) }
        }
        return .none
    }

    /// The query, prepared for many comparisons without allocating per label: ASCII text is
    /// compared byte by byte (case folded for ASCII letters); anything else falls back to
    /// `lowercased()`.
    struct Text {
        let text: String
        let bytes: [UInt8]
        let folded: [UInt8]
        let loweredText: String

        init(_ text: String) {
            self.text = text
            bytes = Array(text.utf8)
            loweredText = text.lowercased()
            folded = Array(loweredText.utf8)
        }

        func equals(_ other: String) -> Bool { other.utf8.elementsEqual(bytes) }

        func equalsCaseless(_ other: String) -> Bool {
            guard other.utf8.allSatisfy({ $0 < 128 }) else { return other.lowercased() == loweredText }
            return other.utf8.count == folded.count && zip(other.utf8, folded).allSatisfy { Text.fold($0) == $1 }
        }

        /// `issuer:account` equals the query (both labels present).
        func equalsPair(_ issuer: String, _ account: String, caseless: Bool) -> Bool {
            guard !issuer.isEmpty, !account.isEmpty else { return false }
            let issuerCount = issuer.utf8.count, accountCount = account.utf8.count
            guard issuerCount + 1 + accountCount == bytes.count, bytes[issuerCount] == UInt8(ascii: ":") else { return false }
            if caseless { return equalsCaseless(issuer + ":" + account) }
            return issuer.utf8.elementsEqual(bytes[..<issuerCount]) && account.utf8.elementsEqual(bytes[(issuerCount + 1)...])
        }

        func isCaselessPart(of other: String) -> Bool {
            guard other.utf8.count >= folded.count else { return false }
            guard other.utf8.allSatisfy({ $0 < 128 }) else { return other.lowercased().contains(loweredText) }
            let haystack = Array(other.utf8)
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

        @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
            byte >= 65 && byte <= 90 ? byte + 32 : byte
        }
    }
}
