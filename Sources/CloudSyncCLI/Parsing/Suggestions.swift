/// "Did you mean …?" for mistyped commands, subcommands, options and config keys.
public enum Suggestions {
    /// The optimal-string-alignment Damerau-Levenshtein distance: insertions, deletions,
    /// substitutions and swaps of two neighbours each cost 1. Case-insensitive.
    public static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a.lowercased()), t = Array(b.lowercased())
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        var before = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            current[0] = i
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    best = min(best, before[j - 2] + 1)
                }
                current[j] = best
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[t.count]
    }

    /// The candidates close enough to `input` to suggest, best first (at most three). Close
    /// means within a distance that grows with the length of the input (1 up to 4 characters,
    /// 2 up to 8, then 3), or `input` being a prefix of the candidate (3 characters at least).
    public static func closest(to input: String, among candidates: [String]) -> [String] {
        guard !input.isEmpty else { return [] }
        let limit = input.count <= 4 ? 1 : (input.count <= 8 ? 2 : 3)
        var scored: [(score: Int, name: String)] = []
        for candidate in Set(candidates) where candidate != input {
            let d = distance(input, candidate)
            let isPrefix = input.count >= 3 && candidate.lowercased().hasPrefix(input.lowercased())
            if d <= limit || isPrefix {
                scored.append((isPrefix ? min(d, 1) : d, candidate))
            }
        }
        guard let best = scored.map(\.score).min() else { return [] }
        return scored.filter { $0.score == best }.map(\.name).sorted().prefix(3).map { $0 }
    }

    /// How a hint starts: an error message keeps a line break only before one (`ErrorReporter`).
    public static let hintPrefix = "Did you mean "

    /// `Did you mean 'zone'?` (or `'a', 'b' or 'c'`), or nil when nothing is close.
    public static func didYouMean(_ input: String, among candidates: [String]) -> String? {
        let names = closest(to: input, among: candidates).map { "'\($0)'" }
        guard let last = names.last else { return nil }
        if names.count == 1 { return hintPrefix + "\(last)?" }
        return hintPrefix + names.dropLast().joined(separator: ", ") + " or " + last + "?"
    }
}
