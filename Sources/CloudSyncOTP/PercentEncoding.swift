/// Percent-encoding (RFC 3986) for otpauth labels and parameters.
enum PercentEncoding {
    /// Unreserved characters stay; everything else becomes `%XX` of its UTF-8 bytes. `extra`
    /// lists further ASCII characters to keep.
    static func encode(_ text: String, keeping extra: String = "") -> String {
        let keep = Set(extra.utf8)
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                if keep.contains(byte) {
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    let hex = Array("0123456789ABCDEF".unicodeScalars)
                    out.unicodeScalars.append("%")
                    out.unicodeScalars.append(hex[Int(byte >> 4)])
                    out.unicodeScalars.append(hex[Int(byte & 15)])
                }
            }
        }
        return out
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`); nil for a broken escape or
    /// bytes that are not UTF-8.
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+") && plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
