/// Base32 (RFC 4648 §6), the encoding of OTP secrets.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Uppercase base32 without `=` padding (as otpauth URIs carry it).
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base32 as people type and paste it: any case, spaces, tabs and hyphens between
    /// groups ignored, `=` padding optional (only at the end).
    public static func decode(_ text: String) throws(OTPError) -> [UInt8] {
        var out: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0, symbols = 0
        var padding = 0
        for (offset, char) in text.unicodeScalars.enumerated() {
            let value: UInt32
            switch char {
            case " ", "\t", "-", "\n", "\r":
                continue
            case "=":
                padding += 1
                continue
            case "A"..."Z": value = char.value - 65
            case "a"..."z": value = char.value - 97
            case "2"..."7": value = char.value - 50 + 26
            default:
                let shown = char.properties.isWhitespace || char.value < 32 ? "U+\(String(char.value, radix: 16, uppercase: true))" : "'\(char)'"
                throw .invalidSecret("the secret is not base32: \(shown) at position \(offset + 1) (base32 uses A-Z and 2-7)")
            }
            guard padding == 0 else { throw .invalidSecret("the secret is not base32: '=' padding in the middle") }
            symbols += 1
            buffer = buffer << 5 | value
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        // 8 symbols carry 5 bytes; a group can only end after 2, 4, 5 or 7 symbols.
        guard [0, 2, 4, 5, 7].contains(symbols % 8) else {
            throw .invalidSecret("the secret is not base32: \(symbols) characters cannot end a base32 group (a character is missing or extra)")
        }
        return out
    }
}
