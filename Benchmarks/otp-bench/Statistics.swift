/// Order statistics of timings.
struct Summary {
    let median: Double
    let p10: Double
    let p90: Double
    let minimum: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let position = q * Double(sorted.count - 1)
            let low = Int(position), high = min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        median = quantile(0.5)
        p10 = quantile(0.1)
        p90 = quantile(0.9)
        minimum = sorted.first ?? 0
    }
}
