import CloudSyncCore

/// Order statistics of a list of milliseconds.
public struct LatencyStats {
    public let sorted: [Double]

    public init(_ samples: [Double]) { sorted = samples.sorted() }

    /// The value at quantile `q` (nearest rank).
    public func quantile(_ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    public var mean: Double { sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count) }

    public var json: JSONValue {
        .object([("median", .double(round3(quantile(0.5)))), ("p90", .double(round3(quantile(0.9)))),
                 ("p99", .double(round3(quantile(0.99)))), ("max", .double(round3(sorted.last ?? 0))),
                 ("min", .double(round3(sorted.first ?? 0))), ("mean", .double(round3(mean))),
                 ("samples", .int(Int64(sorted.count)))])
    }
}

/// Rounds to three decimals (microseconds, for ms figures).
public func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

/// `value` with `digits` decimals, for log lines.
public func fixed(_ value: Double, digits: Int = 2) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (value * scale).rounded()
    let whole = Int64(scaled / scale)
    let fraction = Int64(abs(scaled) - abs(Double(whole)) * scale)
    var fractionText = String(fraction)
    while fractionText.count < digits { fractionText = "0" + fractionText }
    let sign = value < 0 && whole == 0 ? "-" : ""
    return digits == 0 ? sign + String(whole) : sign + String(whole) + "." + fractionText
}
