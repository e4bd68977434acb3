/// PEM armour (RFC 7468): base64 of DER between `-----BEGIN label-----` and `-----END label-----`
/// lines, 64 characters a line. The base64 here is the standard alphabet with `=` padding.
public enum PEM {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `der` armoured under `label` (for example "PRIVATE KEY"), ending with a newline.
    public static func encode(_ der: [UInt8], label: String) -> String {
        let text = base64(der)
        var lines = ["-----BEGIN \(label)-----"]
        var start = text.startIndex
        while start < text.endIndex {
            let end = text.index(start, offsetBy: 64, limitedBy: text.endIndex) ?? text.endIndex
            lines.append(String(text[start..<end]))
            start = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The DER inside the first `label` block of `text` (other text around it is ignored).
    public static func decode(_ text: String, label: String) throws(CryptoError) -> [UInt8] {
        let begin = "-----BEGIN \(label)-----", end = "-----END \(label)-----"
        guard let head = text.firstRange(of: begin), let tail = text[head.upperBound...].firstRange(of: end) else {
            throw .invalidKey("not a PEM \(label) block (no \"\(begin)\" ... \"\(end)\" lines)")
        }
        let body = text[head.upperBound..<tail.lowerBound].filter { !$0.isWhitespace }
        guard let der = unbase64(String(body)), !der.isEmpty else { throw .invalidKey("the PEM \(label) block is not valid base64") }
        return der
    }

    /// Standard base64 with padding.
    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index], b1 = index + 1 < bytes.count ? bytes[index + 1] : 0, b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(index + 1 < bytes.count ? alphabet[Int((b1 & 0x0f) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(b2 & 0x3f)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of padded standard base64, or nil when it is not that.
    static func unbase64(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var values: [UInt8] = []
        values.reserveCapacity(chars.count)
        var padding = 0
        for (position, char) in chars.enumerated() {
            if char == UInt8(ascii: "=") {
                guard position >= chars.count - 2 else { return nil }
                padding += 1
                values.append(0)
                continue
            }
            guard padding == 0, let value = alphabet.firstIndex(of: char) else { return nil }
            values.append(UInt8(value))
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        for group in stride(from: 0, to: values.count, by: 4) {
            let v = values[group..<(group + 4)].map { UInt32($0) }
            let word = v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3]
            out += [UInt8(word >> 16), UInt8(word >> 8 & 0xff), UInt8(word & 0xff)]
        }
        return Array(out.dropLast(padding))
    }
}
