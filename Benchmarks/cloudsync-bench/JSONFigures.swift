import CloudSyncCore

/// Helpers to put measured figures into the JSON document with sensible precision.
enum JSONFigures {
    /// `value` rounded to `digits` decimals (null when not finite).
    static func number(_ value: Double, _ digits: Int = 3) -> JSONValue {
        guard value.isFinite else { return .null }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return .double((value * scale).rounded() / scale)
    }

    /// A rate rounded to a whole number.
    static func rate(_ value: Double) -> JSONValue {
        value.isFinite ? .int(Int64(value.rounded())) : .null
    }

    static func int(_ value: Int) -> JSONValue { .int(Int64(value)) }

    /// `number(value)`, or null when absent.
    static func optional(_ value: Double?, _ digits: Int = 3) -> JSONValue {
        value.map { number($0, digits) } ?? .null
    }

    /// `int(value)`, or null when absent.
    static func optionalInt(_ value: Int?) -> JSONValue {
        value.map(int) ?? .null
    }

    /// Samples in milliseconds: median, min, max and every value.
    static func millis(_ samples: Samples) -> JSONValue {
        .object([("median", number(samples.median * 1000)), ("min", number(samples.min * 1000)),
                 ("max", number(samples.max * 1000)),
                 ("samples", .array(samples.values.map { number($0 * 1000) }))])
    }

    /// Samples in seconds: the raw values.
    static func seconds(_ samples: Samples) -> JSONValue {
        .array(samples.values.map { number($0, 4) })
    }

    /// `met` for a target: true / false, or null when not measured.
    static func met(_ condition: Bool?) -> JSONValue {
        condition.map(JSONValue.bool) ?? .null
    }
}
