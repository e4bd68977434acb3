/// ANSI styles for human output; `Output.styled` applies them only when color is on.
public enum TextStyle: Sendable, Hashable {
    /// Bold.
    case bold
    /// Dim (faint).
    case dim
    /// Red, for errors.
    case red
    /// Green, for success.
    case green
    /// Yellow, for warnings.
    case yellow
    /// Blue.
    case blue
    /// Cyan.
    case cyan

    /// The SGR escape sequence that starts the style.
    var escape: String {
        switch self {
        case .bold: "\u{1B}[1m"
        case .dim: "\u{1B}[2m"
        case .red: "\u{1B}[31m"
        case .green: "\u{1B}[32m"
        case .yellow: "\u{1B}[33m"
        case .blue: "\u{1B}[34m"
        case .cyan: "\u{1B}[36m"
        }
    }

    /// The SGR sequence that resets all styles.
    static let reset = "\u{1B}[0m"
}
