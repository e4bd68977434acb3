/// Why a JSON text could not be parsed, with the byte offset where it went wrong.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

extension JSONValue {
    /// What parsing does with a key repeated in one object (RFC 8259 leaves it open).
    public enum DuplicateKeys: Sendable {
        /// The last member wins (what most parsers do): files other programs wrote, stored text.
        case lastWins
        /// A repeated key is an error at its offset: requests, where an ambiguous body would
        /// mean one thing to the server and another to whatever checked it on the way.
        case refused
    }

    /// Parses a complete JSON text (RFC 8259). Nesting deeper than 512 levels and texts over
    /// 64 MiB are refused.
    public static func parse(_ text: String, duplicateKeys: DuplicateKeys = .lastWins) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8), duplicateKeys: duplicateKeys)
    }

    /// Parses a complete JSON text given as UTF-8 bytes, of at most `JSONByteParser.maxBytes`.
    public static func parse(bytes: [UInt8], duplicateKeys: DuplicateKeys = .lastWins) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= JSONByteParser.maxBytes else {
            throw JSONParseError(message: "the text is larger than \(JSONByteParser.maxBytes >> 20) MiB", offset: 0)
        }
        var parser = JSONByteParser(bytes: bytes)
        parser.refusesDuplicateKeys = duplicateKeys == .refused
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected trailing characters") }
        return value
    }
}

struct JSONByteParser {
    let bytes: [UInt8]
    var index = 0
    /// Key comparisons and look-ups made to find repeated object keys: a bounded number per
    /// key, whatever the object's size (tests count them to keep parsing linear).
    var keyProbes = 0
    /// A repeated key in an object is an error instead of replacing the earlier member.
    var refusesDuplicateKeys = false
    static let maxDepth = 512
    /// The largest text parsed (64 MiB: the largest file any command reads).
    static let maxBytes = 64 << 20

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: index) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONByteParser.maxDepth else { throw error("nesting too deep") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    mutating func expectWord(_ word: String) throws(JSONParseError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(word)'") }
            index += 1
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var pairs: [(String, JSONValue)] = []
        var members = JSONMemberIndex()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyOffset = index
            let key = try parseString()
            let existing = members.index(of: key, in: pairs, probes: &keyProbes)
            if existing != nil && refusesDuplicateKeys {
                throw JSONParseError(message: "duplicate key \(JSONValue.string(key).serialized())", offset: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if let existing {
                pairs[existing].1 = value
            } else {
                members.append(key, after: pairs)
                pairs.append((key, value))
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("bad hex digit in \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        // Fast path: no escape before the closing quote -> one String from the run, no copies.
        var end = index
        var ascii = true
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            if bytes[end] >= 0x80 { ascii = false }
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let start = index
            let text: String? = bytes.withUnsafeBufferPointer { all in
                let run = UnsafeBufferPointer(rebasing: all[start..<end])
                return ascii ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
            }
            guard let text else { throw error("string is not valid UTF-8") }
            index = end + 1
            return text
        }
        var runStart = index
        var buffer: [UInt8] = []
        func flush(_ parser: JSONByteParser, _ buffer: inout [UInt8], _ runStart: Int) {
            buffer.append(contentsOf: parser.bytes[runStart..<parser.index])
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                flush(self, &buffer, runStart)
                index += 1
                break
            }
            if b < 0x20 { throw error("control character in string") }
            if b == UInt8(ascii: "\\") {
                flush(self, &buffer, runStart)
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if code >= 0xD800 && code < 0xDC00 {
                        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else { throw error("unpaired surrogate") }
                        index += 2
                        let low = try parseHex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw error("invalid low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if code >= 0xDC00 && code < 0xE000 {
                        throw error("unpaired surrogate")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid code point") }
                    buffer.append(contentsOf: Array(String(scalar).utf8))
                default: throw error("unknown escape '\\\(Character(Unicode.Scalar(e)))'")
                }
                runStart = index
                continue
            }
            index += 1
        }
        guard let decoded = String(validating: buffer, as: UTF8.self) else {
            throw error("string is not valid UTF-8")
        }
        return decoded
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("digit expected after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("digit expected in exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text) else { throw error("invalid number") }
        guard d.isFinite else { throw error("number out of range") }
        return .double(d)
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
