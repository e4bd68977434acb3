/// Base64 (RFC 4648 §4) and base64url (§5) coding, without Foundation.
public enum Base64 {
    static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes; `url` selects the URL-safe alphabet, `padding` the trailing `=`.
    public static func encode(_ bytes: [UInt8], url: Bool = false, padding: Bool = true) -> String {
        let alphabet = url ? urlAlphabet : standardAlphabet
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            if rest == 2 { out.append(alphabet[Int(n >> 6 & 63)]) }
            if padding { out.append(contentsOf: Array(repeating: UInt8(ascii: "="), count: 3 - rest)) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes either alphabet, with or without padding. Returns nil for anything else
    /// (bad characters, impossible lengths, non-zero trailing bits).
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for c in text.utf8 {
            if c == UInt8(ascii: "=") { padding += 1; continue }
            guard padding == 0 else { return nil }
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "/"), UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1, padding <= 2 else { return nil }
        if padding > 0, (values.count + padding) % 4 != 0 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i + 4 <= values.count {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6 | UInt32(values[i + 3])
            out.append(UInt8(n >> 16 & 0xFF)); out.append(UInt8(n >> 8 & 0xFF)); out.append(UInt8(n & 0xFF))
            i += 4
        }
        let rest = values.count - i
        if rest == 2 {
            guard values[i + 1] & 0x0F == 0 else { return nil }
            out.append(values[i] << 2 | values[i + 1] >> 4)
        } else if rest == 3 {
            guard values[i + 2] & 0x03 == 0 else { return nil }
            out.append(values[i] << 2 | values[i + 1] >> 4)
            out.append((values[i + 1] & 0x0F) << 4 | values[i + 2] >> 2)
        }
        return out
    }
}
