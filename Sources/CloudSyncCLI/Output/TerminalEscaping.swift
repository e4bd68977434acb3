import CloudSyncCore

/// Makes text safe to show on a terminal. Text output prints names and values that come from
/// the cloud (another account's public record), from files and from the command line; a control
/// character in them must never reach the terminal raw, where `ESC ] 0 ; … BEL` retitles the
/// window, `ESC [ 2 J` clears the screen and a carriage return or a newline forges output.
///
/// What is escaped, and how it is shown (C-style, as `printf %q`, `git` and `less -U` users read
/// escapes; lowercase hex like the JSON writer's `\u001b`):
/// - C0 controls: `\a \b \t \n \v \f \r \e` by name, the others as `\x01`…`\x1f`, DEL as `\x7f`;
/// - C1 controls U+0080–U+009F (a terminal may take U+009B as `ESC [`): `\u0080`…`\u009f`;
/// - bidirectional controls (U+202A–U+202E, U+2066–U+2069: "Trojan Source" text that reads
///   differently from what it is; the marks U+200E, U+200F, U+061C) and the line and paragraph
///   separators U+2028/U+2029: `\u202e` and so on.
///
/// The list is `ControlCharacters` (CloudSyncCore), which JSON output escapes as well.
///
/// A backslash is left as it is, so escaping is idempotent (`escapeValue(escapeValue(s)) ==
/// escapeValue(s)`): text may pass through more than one layer. The price is that a value that
/// holds the two characters `\e` prints like one that holds ESC; `--json` shows every value
/// exactly.
public enum TerminalEscaping {
    /// `value` with every character in the list above escaped, including newline, carriage
    /// return and tab: one value always prints on one line and never adds a column of a
    /// tab-separated line.
    public static func escapeValue(_ value: String) -> String {
        escape(value, keepingLayout: false)
    }

    /// `text` with every character in the list above escaped except newline and tab: for text
    /// the program laid out itself (lines, hint lines, tab-separated columns) around values that
    /// were escaped with `escapeValue`.
    public static func escapeText(_ text: String) -> String {
        escape(text, keepingLayout: true)
    }

    /// True if `scalar` is shown escaped; with `keepingLayout`, newline and tab are not.
    public static func needsEscaping(_ scalar: Unicode.Scalar, keepingLayout: Bool = false) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLayout
        default: ControlCharacters.contains(scalar)
        }
    }

    private static func escape(_ text: String, keepingLayout: Bool) -> String {
        // Fast path: printable ASCII (and, with the layout kept, newlines and tabs) only.
        if text.utf8.allSatisfy({ byte in
            (byte >= 0x20 && byte < 0x7F) || (keepingLayout && (byte == 0x0A || byte == 0x09))
        }) {
            return text
        }
        let scalars = text.unicodeScalars
        guard scalars.contains(where: { needsEscaping($0, keepingLayout: keepingLayout) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in scalars {
            if needsEscaping(scalar, keepingLayout: keepingLayout) {
                out.append(contentsOf: shown(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The visible form of one escaped scalar.
    static func shown(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x07: return "\\a"
        case 0x08: return "\\b"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0B: return "\\v"
        case 0x0C: return "\\f"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0x00...0x1F, 0x7F: return "\\x" + hex(scalar.value, digits: 2)
        default: return "\\u" + hex(scalar.value, digits: 4)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
