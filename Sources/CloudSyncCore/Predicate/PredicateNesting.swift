/// How deeply a ``Predicate`` nests, and the bound every entry point holds it to.
///
/// Evaluating, describing, encoding and comparing a predicate recurse once per level, so an
/// unbounded nesting (thousands of `NOT`s or parentheses) would overflow the stack. The parser
/// refuses text that nests deeper than ``Predicate/maxNestingDepth`` before it recurses that far,
/// and the cloud checks predicates built in code and predicates it reads back from storage with
/// ``Predicate/validateNesting()``, which walks without recursion.
extension Predicate {
    /// The deepest nesting a predicate may have: `NOT` and `AND` nodes on one path from the root
    /// (and, in text, `NOT`/`!` and parentheses open at one point).
    public static let maxNestingDepth = 100

    /// The number of `not` and `and` nodes on the deepest path from the root (0 for a single
    /// comparison or `TRUEPREDICATE`). Computed without recursion, so any predicate can be measured.
    public var nestingDepth: Int {
        var deepest = 0
        var stack: [(Predicate, Int)] = [(self, 0)]
        while let (predicate, depth) = stack.popLast() {
            switch predicate {
            case .truePredicate, .comparison:
                continue
            case .not(let inner):
                deepest = max(deepest, depth + 1)
                stack.append((inner, depth + 1))
            case .and(let items):
                deepest = max(deepest, depth + 1)
                for item in items { stack.append((item, depth + 1)) }
            }
        }
        return deepest
    }

    /// Throws `invalidArguments` when the predicate nests deeper than ``maxNestingDepth``.
    public func validateNesting() throws(CloudError) {
        let depth = nestingDepth
        guard depth <= Predicate.maxNestingDepth else { throw Predicate.nestingError(depth: depth) }
    }

    /// The error for a predicate nested `depth` levels deep (nil: unknown, the parser stopped early).
    static func nestingError(depth: Int?) -> CloudError {
        CloudError(.invalidArguments,
                   "the predicate nests \(depth.map { "\($0) levels" } ?? "too") deep; at most \(maxNestingDepth) levels of NOT, AND and parentheses are allowed")
    }
}
