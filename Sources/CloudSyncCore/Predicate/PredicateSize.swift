/// How much work a ``Predicate`` is to evaluate, and the bound the cloud holds it to.
///
/// A query subscription's predicate is evaluated on every matching save of every account, so
/// its width is someone else's cost: the cloud refuses predicates with more than
/// ``Predicate/maxComparisons`` comparisons (each value of an `IN` list counting as one).
extension Predicate {
    /// The most comparisons a predicate may hold (an `IN` list counts one per value).
    public static let maxComparisons = 1_000

    /// The comparisons of the predicate, an `IN` list counting one per value. Computed without
    /// recursion, and it stops counting past `limit` (so a huge predicate costs no more than that).
    public func comparisonCount(stoppingAfter limit: Int = .max) -> Int {
        var count = 0
        var stack: [Predicate] = [self]
        while let predicate = stack.popLast(), count <= limit {
            switch predicate {
            case .truePredicate:
                continue
            case .comparison(_, _, .list(let values)):
                count += max(values.count, 1)
            case .comparison:
                count += 1
            case .not(let inner):
                stack.append(inner)
            case .and(let items):
                stack.append(contentsOf: items)
            }
        }
        return count
    }

    /// Throws `limitExceeded` (exit 65) when the predicate holds more than ``maxComparisons`` comparisons.
    public func validateWidth() throws(CloudError) {
        let count = comparisonCount(stoppingAfter: Predicate.maxComparisons)
        guard count <= Predicate.maxComparisons else {
            throw CloudError(.limitExceeded,
                             "the predicate has more than \(Predicate.maxComparisons) comparisons (an IN list counts one per value); split the question")
        }
    }
}
