/// "Did you mean …?" for schema names: the closest candidate by edit distance.
enum SchemaSuggestion {
    /// The candidate nearest to `word` (case-insensitive), if it is close enough to be a likely
    /// typo: at most 2 edits, and fewer edits than the word has characters.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.uppercased().unicodeScalars.prefix(64))
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(target, Array(candidate.uppercased().unicodeScalars))
            if d <= 2, d < target.count, best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    /// Levenshtein distance, two rows.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                row[j] = Swift.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
