/// One token of .ckdb text.
struct SchemaToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// An unquoted word: a keyword, type name or plain identifier, as written.
        case word(String)
        /// A `"quoted"` name (never a keyword).
        case quoted(String)
        /// `( ) , ; < >`.
        case symbol(UInt8)
        case end
    }

    var kind: Kind
    var line: Int
    var column: Int

    /// The upper-cased word, for keyword matching; nil for other tokens.
    var keyword: String? {
        if case .word(let w) = kind { return w.uppercased() }
        return nil
    }

    func isKeyword(_ k: String) -> Bool { keyword == k }
    func isSymbol(_ s: Character) -> Bool { kind == .symbol(s.asciiValue!) }

    /// The token as an error message names it.
    var shown: String {
        switch kind {
        case .word(let w): SchemaError.quoted(w)
        case .quoted(let q): SchemaError.quoted("\"" + q + "\"")
        case .symbol(let s): "'\(Character(Unicode.Scalar(s)))'"
        case .end: "the end of the schema"
        }
    }
}

/// Splits .ckdb text into tokens, one at a time, skipping blanks and `//`, `--` and `/* */`
/// comments. Iterative, one pass over the UTF-8 bytes.
struct SchemaLexer {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var column = 1

    /// The longest name accepted, in UTF-8 bytes (CloudKit's names are far shorter).
    static let maxNameBytes = 255

    init(_ text: String) {
        bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a byte order mark
    }

    func error(_ line: Int, _ column: Int, _ kind: SchemaError.Kind) -> SchemaError {
        SchemaError(line: line, column: column, kind: kind)
    }

    /// Moves past one byte, keeping line and column (columns count Unicode scalars).
    mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    func byte(at offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    static func isWordByte(_ b: UInt8) -> Bool { isLetter(b) || (b >= 0x30 && b <= 0x39) || b == 0x5F }

    /// The Unicode scalar starting at the current byte (for error messages).
    func scalarHere() -> Unicode.Scalar {
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80, end - index < 4 { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
    }

    mutating func skipBlanksAndComments() throws(SchemaError) {
        while let b = byte(at: 0) {
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C {
                advance()
            } else if (b == 0x2F && byte(at: 1) == 0x2F) || (b == 0x2D && byte(at: 1) == 0x2D) {
                while let c = byte(at: 0), c != 0x0A { advance() }
            } else if b == 0x2F && byte(at: 1) == 0x2A {
                let (startLine, startColumn) = (line, column)
                advance()
                advance()
                while true {
                    guard let c = byte(at: 0) else { throw error(startLine, startColumn, .unterminatedComment) }
                    if c == 0x2A && byte(at: 1) == 0x2F {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    mutating func next() throws(SchemaError) -> SchemaToken {
        try skipBlanksAndComments()
        let (startLine, startColumn) = (line, column)
        guard let b = byte(at: 0) else { return SchemaToken(kind: .end, line: line, column: column) }
        func token(_ kind: SchemaToken.Kind) -> SchemaToken { SchemaToken(kind: kind, line: startLine, column: startColumn) }

        if Self.isLetter(b) || b == 0x5F {
            let start = index
            while let c = byte(at: 0), Self.isWordByte(c) { advance() }
            if index - start > Self.maxNameBytes {
                throw error(startLine, startColumn, .limitExceeded("name longer than \(Self.maxNameBytes) bytes"))
            }
            return token(.word(String(decoding: bytes[start..<index], as: UTF8.self)))
        }
        if b == 0x22 {
            advance()
            let start = index
            while true {
                guard let c = byte(at: 0), c != 0x0A, c != 0x0D else {
                    throw error(startLine, startColumn, .unterminatedQuote)
                }
                if c == 0x22 { break }
                if c < 0x20 || c == 0x7F {
                    throw error(line, column, .invalidCharacter(Unicode.Scalar(c)))
                }
                advance()
            }
            let name = String(decoding: bytes[start..<index], as: UTF8.self)
            advance()
            if name.isEmpty { throw error(startLine, startColumn, .syntax("empty quoted name")) }
            if name.utf8.count > Self.maxNameBytes {
                throw error(startLine, startColumn, .limitExceeded("name longer than \(Self.maxNameBytes) bytes"))
            }
            return token(.quoted(name))
        }
        if [0x28, 0x29, 0x2C, 0x3B, 0x3C, 0x3E].contains(b) {
            advance()
            return token(.symbol(b))
        }
        throw error(startLine, startColumn, .invalidCharacter(scalarHere()))
    }
}
