/// String literals in JSON output: the one escaper every JSON writer uses (`serialized()`,
/// `prettyPrinted()`, the stored `fields` text and the byte-level replies).
///
/// Escaped: `"` and `\`; every character of `ControlCharacters` (C0, DEL, C1, bidirectional
/// controls, U+2028/U+2029), so that JSON output shown on a terminal cannot drive it and so that
/// a value from another account reads as what it is. `\n \r \t \b \f` by name, the others as
/// `\u` and four lowercase hex digits (`\u009b`, `\u202e`). Everything else, `/` and the rest of
/// non-ASCII included, is written as it is. The output parses back to the same string.
extension JSONValue {
    /// A string literal into a byte buffer: runs with nothing to escape are copied in bulk.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { appendEscaped($0, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// A string literal appended to a String (the indented writer).
    static func writeString(_ s: String, to out: inout String) {
        guard s.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || ControlCharacters.mayStart($0) }) else {
            out += "\""
            out += s
            out += "\""
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 16)
        writeString(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// The valid UTF-8 `bytes` (a Swift string's), escaped, appended to `out` without quotes.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var copied = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x22 || byte == 0x5C || ControlCharacters.mayStart(byte) else {
                index += 1
                continue
            }
            let (scalar, length) = scalar(in: bytes, at: index)
            guard byte < 0x80 || ControlCharacters.contains(scalar) else {
                index += length
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
            appendEscape(scalar, to: &out)
            index += length
            copied = index
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
    }

    /// The scalar whose UTF-8 encoding starts at `index` of the valid UTF-8 `bytes`, and its length.
    @inline(__always)
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[index])
        let value: UInt32
        let length: Int
        switch lead {
        case ..<0x80: (value, length) = (lead, 1)
        case ..<0xE0: (value, length) = ((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2)
        case ..<0xF0:
            (value, length) = ((lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
        default:
            (value, length) = ((lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                               | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F), 4)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The escape of one scalar that needs it.
    private static func appendEscape(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch scalar {
        case "\"": out.append(UInt8(ascii: "\""))
        case "\\": out.append(UInt8(ascii: "\\"))
        case "\n": out.append(UInt8(ascii: "n"))
        case "\r": out.append(UInt8(ascii: "r"))
        case "\t": out.append(UInt8(ascii: "t"))
        case "\u{08}": out.append(UInt8(ascii: "b"))
        case "\u{0C}": out.append(UInt8(ascii: "f"))
        default:
            out.append(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) {
                let digit = UInt8(truncatingIfNeeded: scalar.value >> UInt32(shift)) & 0xF
                out.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
            }
        }
    }
}
