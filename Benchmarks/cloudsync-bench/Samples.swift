/// Summary statistics of repeated measurements (the machine is shared, so we report the median
/// and the spread rather than one run).
struct Samples {
    private(set) var values: [Double] = []

    init(_ values: [Double] = []) { self.values = values }

    mutating func append(_ value: Double) { values.append(value) }

    var count: Int { values.count }

    /// The middle value (mean of the two middle ones for an even count); 0 when empty.
    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    var min: Double { values.min() ?? 0 }
    var max: Double { values.max() ?? 0 }

    /// (max - min) / median: a rough noise figure.
    var relativeSpread: Double {
        let m = median
        return m > 0 ? (max - min) / m : 0
    }
}
