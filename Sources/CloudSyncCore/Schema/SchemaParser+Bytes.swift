/// .ckdb files as they are read: bytes, which must be UTF-8 text.
extension SchemaParser {
    /// Parses the bytes of a .ckdb file: as `parse(_:limits:)`, after refusing bytes that are not
    /// UTF-8 text at the line and column of the first bad one (`SchemaError.Kind.invalidUTF8`).
    public static func parse(bytes: [UInt8], limits: Limits = .standard) throws(SchemaError) -> CloudSchema {
        if bytes.count > limits.maxBytes {
            throw SchemaError(line: 1, column: 1, kind: .limitExceeded("schema text is larger than \(limits.maxBytes) bytes"))
        }
        return try parse(text(bytes), limits: limits)
    }

    /// `bytes` as a string, or the position of the first byte that does not begin (or continue) a
    /// well-formed UTF-8 character (Unicode table 3-7: no overlong forms, surrogates or values
    /// past U+10FFFF). Lines and columns are counted as the lexer counts them: a leading byte
    /// order mark is skipped, columns are Unicode scalars.
    static func text(_ bytes: [UInt8]) throws(SchemaError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var column = 1
        while index < bytes.count {
            let length = wellFormedLength(bytes, at: index)
            guard length > 0 else {
                throw SchemaError(line: line, column: column, kind: .invalidUTF8(bytes[index]))
            }
            if bytes[index] == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        // Not reached: String(validating:) refused the bytes, so the loop found a bad one.
        throw SchemaError(line: line, column: column, kind: .invalidUTF8(0))
    }

    /// The length of the well-formed UTF-8 character at `index`, or 0 if there is none.
    private static func wellFormedLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return 0
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
