/// Human text on its way to the terminal, which knows its program-made layout from its data.
///
/// In a string literal, the literal parts are the program's layout and every interpolated
/// value is data: `output.line("deleted zone \(name)")` prints the name through
/// `TerminalEscaping.escapeValue`, so a name holding ESC, a newline or a tab shows them as `\e`,
/// `\n` and `\t` and can neither drive the terminal nor forge a line or a column. Layout keeps
/// its newlines and tabs; any other control character in it is escaped as well, so the only way
/// to send a control sequence is `Output.writeVerbatim`. Styled parts (`"\(name, style: .bold)"`)
/// are colored by `Output` only when color is on.
///
/// Text built elsewhere enters as `.text(_:)` (laid out by the program, its values already
/// escaped) or `.value(_:)` (one value).
public struct TerminalText: Sendable, Hashable, ExpressibleByStringInterpolation {
    enum Part: Sendable, Hashable {
        case layout(String)
        case value(String)
        case styled(String, TextStyle)
    }

    private(set) var parts: [Part]

    private init(parts: [Part]) { self.parts = parts }

    /// A literal without interpolations: all layout.
    public init(stringLiteral value: String) { parts = [.layout(value)] }

    /// A literal with interpolations: literal parts are layout, interpolations are values.
    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    /// Text the program laid out itself (lines, hint lines, tab-separated columns): newlines and
    /// tabs are kept, every other control character is escaped. Values in it must have been
    /// escaped already (`TerminalEscaping.escapeValue`) or they can forge lines.
    public static func text(_ text: String) -> TerminalText { TerminalText(parts: [.layout(text)]) }

    /// One value: everything is escaped, newlines and tabs too.
    public static func value(_ value: String) -> TerminalText { TerminalText(parts: [.value(value)]) }

    /// One value in a style (applied only when color is on).
    public static func styled(_ value: String, _ style: TextStyle) -> TerminalText {
        TerminalText(parts: [.styled(value, style)])
    }

    /// Lines of text joined by newlines.
    public init(lines: [TerminalText]) {
        var parts: [Part] = []
        for (index, line) in lines.enumerated() {
            if index > 0 { parts.append(.layout("\n")) }
            parts += line.parts
        }
        self.parts = parts
    }

    /// This text followed by `other`.
    public func appending(_ other: TerminalText) -> TerminalText { TerminalText(parts: parts + other.parts) }

    /// The text as it is written: values escaped, styles as ANSI sequences when `color` is on.
    public func rendered(color: Bool) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .layout(let layout): text += TerminalEscaping.escapeText(layout)
            case .value(let value): text += TerminalEscaping.escapeValue(value)
            case .styled(let value, let style):
                let escaped = TerminalEscaping.escapeValue(value)
                text += color ? style.escape + escaped + TextStyle.reset : escaped
            }
        }
        return text
    }

    /// The text without colors, as a terminal shows it: for measuring columns and for tests.
    public var plain: String { rendered(color: false) }

    /// Builds a `TerminalText` from a literal with interpolations.
    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        /// Room for a literal of this many characters and this many interpolations.
        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        /// A literal part: layout.
        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.layout(literal)) }
        }

        /// An interpolated value: data, shown escaped.
        public mutating func appendInterpolation<Value>(_ value: Value) {
            parts.append(.value(String(describing: value)))
        }

        /// Interpolated terminal text keeps its own layout, values and styles.
        public mutating func appendInterpolation(_ text: TerminalText) {
            parts += text.parts
        }

        /// An interpolated value in a style (applied only when color is on).
        public mutating func appendInterpolation<Value>(_ value: Value, style: TextStyle) {
            parts.append(.styled(String(describing: value), style))
        }
    }
}
