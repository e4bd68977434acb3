/// Finds a repeated key among the members of one JSON object being parsed, in a bounded number
/// of steps per key: a short object is scanned (cheaper than hashing), a long one gets a hash
/// index from its `linearLimit`th key on. Parsing an object of n keys is then O(n), not the
/// O(n²) of scanning every earlier key for each new one.
struct JSONMemberIndex {
    /// Objects up to this many keys are scanned; longer ones are indexed.
    static let linearLimit = 16

    private var positions: [String: Int]?

    /// The position of `key` among `pairs` (the members so far), or nil. `probes` counts the
    /// comparisons and look-ups made.
    func index(of key: String, in pairs: [(String, JSONValue)], probes: inout Int) -> Int? {
        if let positions {
            probes += 1
            return positions[key]
        }
        for position in pairs.indices {
            probes += 1
            if pairs[position].0 == key { return position }
        }
        return nil
    }

    /// Records that `key` becomes the next member after `pairs`, building the hash index when
    /// the object grows past `linearLimit` keys.
    mutating func append(_ key: String, after pairs: [(String, JSONValue)]) {
        if positions == nil && pairs.count >= Self.linearLimit {
            var built: [String: Int] = [:]
            built.reserveCapacity(pairs.count * 2)
            for (position, pair) in pairs.enumerated() { built[pair.0] = position }
            positions = built
        }
        positions?[key] = pairs.count
    }
}
