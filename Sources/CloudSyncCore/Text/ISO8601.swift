/// A small ISO-8601 / RFC 3339 codec for UTC instants, in milliseconds since the Unix epoch
/// (the unit of every timestamp in cloudsync). Pure Swift, no Foundation, proleptic Gregorian
/// calendar, no leap seconds.
public enum ISO8601 {
    /// Milliseconds between 1970-01-01T00:00:00Z and 2001-01-01T00:00:00Z, the reference date of
    /// `NSDate` (`timeIntervalSinceReferenceDate`). 31 years of which 8 leap: 11 323 days.
    public static let referenceDateMilliseconds: Int64 = 978_307_200_000

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` and returns milliseconds since the epoch.
    ///
    /// - `T` may also be `t` or a space, `Z` may be `z`.
    /// - The fraction may have 1 to 9 digits; digits past milliseconds are truncated.
    /// - A bare date `YYYY-MM-DD` means midnight UTC of that day.
    /// - A date-time without a zone designator is refused (it would be a local time).
    /// - Fields are range-checked (month 1-12, day within the month, hour 0-23, minute and
    ///   second 0-59, offset up to ±23:59).
    ///
    /// Returns nil for anything else.
    public static func milliseconds(from text: String) -> Int64? {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.take(UInt8(ascii: "-")),
              let month = reader.number(digits: 2), reader.take(UInt8(ascii: "-")),
              let day = reader.number(digits: 2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        let days = daysFromCivil(year: Int64(year), month: month, day: day)
        if reader.atEnd { return days * 86_400_000 }

        guard reader.take(UInt8(ascii: "T")) || reader.take(UInt8(ascii: "t")) || reader.take(UInt8(ascii: " ")),
              let hour = reader.number(digits: 2), reader.take(UInt8(ascii: ":")),
              let minute = reader.number(digits: 2), reader.take(UInt8(ascii: ":")),
              let second = reader.number(digits: 2),
              hour < 24, minute < 60, second < 60 else { return nil }
        var millis = 0
        if reader.take(UInt8(ascii: ".")) {
            var count = 0
            while let digit = reader.digit() {
                if count < 3 { millis = millis * 10 + digit }
                count += 1
            }
            guard (1...9).contains(count) else { return nil }
            var scale = count
            while scale < 3 { millis *= 10; scale += 1 }
        }
        var offsetMinutes = 0
        if reader.take(UInt8(ascii: "Z")) || reader.take(UInt8(ascii: "z")) {
            offsetMinutes = 0
        } else {
            let sign: Int
            if reader.take(UInt8(ascii: "+")) { sign = 1 } else if reader.take(UInt8(ascii: "-")) { sign = -1 } else { return nil }
            guard let oh = reader.number(digits: 2), reader.take(UInt8(ascii: ":")),
                  let om = reader.number(digits: 2), oh < 24, om < 60 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        }
        guard reader.atEnd else { return nil }
        let secondsOfDay = Int64(hour * 3600 + minute * 60 + second - offsetMinutes * 60)
        return (days * 86_400 + secondsOfDay) * 1000 + Int64(millis)
    }

    /// Formats milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ`, with a `.fff` fraction
    /// only when the milliseconds are not zero. Years outside 0000-9999 are written with a sign
    /// (`+12345-…`, `-0001-…`) and cannot be parsed back.
    public static func format(milliseconds: Int64) -> String {
        let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civilFromDays(days)
        let seconds = Int(msOfDay / 1000)
        let millis = Int(msOfDay % 1000)
        var out = ""
        if year < 0 {
            out += "-" + pad(-year, 4)
        } else if year > 9999 {
            out += "+" + pad(year, 4)
        } else {
            out += pad(year, 4)
        }
        out += "-" + pad(Int64(month), 2) + "-" + pad(Int64(day), 2)
        out += "T" + pad(Int64(seconds / 3600), 2) + ":" + pad(Int64(seconds / 60 % 60), 2) + ":" + pad(Int64(seconds % 60), 2)
        if millis != 0 { out += "." + pad(Int64(millis), 3) }
        return out + "Z"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(month > 2 ? month - 3 : month + 9)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (`civil_from_days`).
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// Reads fixed-width ASCII digits and single characters from UTF-8 bytes.
private struct DigitReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
        index += 1
        return Int(bytes[index - 1] - UInt8(ascii: "0"))
    }

    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let d = digit() else { return nil }
            value = value * 10 + d
        }
        return value
    }
}
