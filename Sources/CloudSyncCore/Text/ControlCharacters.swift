/// The characters that must never reach a terminal raw, whichever output carries them: text
/// output shows them escaped (`TerminalEscaping` in the CLI kit) and JSON output writes them as
/// `\uXXXX` (`JSONValue.serialized()`), so both take the list from here.
///
/// - C0 controls U+0000–U+001F and DEL U+007F;
/// - C1 controls U+0080–U+009F (a terminal may take U+009B as `ESC [`);
/// - bidirectional formatting: the embeddings and overrides U+202A–U+202E, the isolates
///   U+2066–U+2069 ("Trojan Source" text that reads differently from what it is) and the marks
///   U+200E, U+200F and U+061C;
/// - the line and paragraph separators U+2028 and U+2029.
public enum ControlCharacters {
    /// True if `scalar` is in the list above.
    @inline(__always)
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// True if a UTF-8 sequence starting with `byte` may encode a character in the list: every
    /// ASCII control, and the lead bytes of U+0080–U+00BF (0xC2), U+0600–U+063F (0xD8) and
    /// U+2000–U+2FFF (0xE2). Byte-level writers decode a scalar only after this says yes, so text
    /// without those lead bytes is copied as it is.
    @inline(__always)
    public static func mayStart(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }
}
