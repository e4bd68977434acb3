/// The one parser of a point in time typed by a person, shared by TIMESTAMP field values and
/// every time option (`message inbox --since`, `otp code --at`, …): ISO 8601
/// (`2026-01-31T12:00:00Z`, or a bare date for midnight UTC), `@epoch-seconds` (`@1700000000`)
/// or epoch milliseconds (`1700000000000`).
public enum TimeInput {
    /// The forms accepted, for error messages and help.
    public static let forms = "ISO 8601 (2026-01-31T12:00:00Z), @epoch-seconds (@1700000000) or epoch milliseconds (1700000000000)"

    /// Milliseconds since 1970-01-01T00:00:00Z, or nil when `text` is none of the accepted
    /// forms (or `@seconds` overflows 64-bit milliseconds).
    public static func milliseconds(from text: String) -> Int64? {
        if text.hasPrefix("@") {
            guard let seconds = Int64(text.dropFirst()) else { return nil }
            let (ms, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            return overflow ? nil : ms
        }
        if let ms = Int64(text) { return ms }
        return ISO8601.milliseconds(from: text)
    }
}
