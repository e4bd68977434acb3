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
        public var name: String
        public var issuer: String
        public var account: String

        public init(name: String, issuer: String, account: String) {
            self.name = name
            self.issuer = issuer
            self.account = account
        }

        var issuerAccount: String { issuer + ":" + account }
    }

    /// Finds the token `query` means among `items`.
    public static func match<Item>(_ query: String, in items: [Item], labels: (Item) -> Labels) -> OTPQueryResult<Item> {
        let all = items.map { ($0, labels($0)) }
        let lowered = query.lowercased()
        let rules: [(Labels) -> Bool] = [
            { $0.name == query },
            { !$0.issuer.isEmpty && !$0.account.isEmpty && $0.issuerAccount == query },
            { !$0.issuer.isEmpty && $0.issuer == query },
            { $0.name.lowercased() == lowered },
            { !$0.issuer.isEmpty && !$0.account.isEmpty && $0.issuerAccount.lowercased() == lowered },
            { !$0.issuer.isEmpty && $0.issuer.lowercased() == lowered },
            { $0.name.lowercased().contains(lowered) || $0.issuer.lowercased().contains(lowered)
                || $0.account.lowercased().contains(lowered) },
        ]
        guard !query.isEmpty else { return .none }
        for rule in rules {
            let hits = all.filter { rule($0.1) }.map(\.0)
            if hits.count == 1 { return .match(hits[0]) }
            if hits.count > 1 { return .ambiguous(hits) }
        }
        return .none
    }
}
