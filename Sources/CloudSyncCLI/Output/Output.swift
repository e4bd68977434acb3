import CloudSyncCore
import Glibc

/// Where a command prints. Human text and JSON go to stdout, chatter, warnings and errors to
/// stderr. It knows the `--json`, `--quiet` and color settings and whether stdout is a
/// terminal. stdout is buffered (line by line on a terminal) and flushed before anything goes
/// to stderr, so the two stay in order; the dispatcher flushes at the end.
///
/// Human text is `TerminalText`: every name and value in it passes through `TerminalEscaping`,
/// so data from the cloud, files or the command line never sends a control character to the
/// terminal nor forges a line (JSON is written as the JSON writer escapes it). Only
/// `writeVerbatim`/`writeErrorVerbatim` write control sequences, which the program makes itself.
///
/// Commands receive one through `CommandContext.output`; tests build one on file descriptors.
public final class Output: @unchecked Sendable {
    /// The descriptor human text and JSON are written to.
    public let standardOutput: Int32
    /// The descriptor chatter, warnings and errors are written to.
    public let standardError: Int32
    /// True if stdout is a terminal: JSON is pretty-printed, output is line-buffered.
    public let isTTY: Bool
    /// The columns of the terminal stdout is, or nil when stdout is not a terminal. Text is cut
    /// to fit only when this is set (`fitted`, `table(_:_:fitting:)`): piped output is never cut.
    public let terminalWidth: Int?
    private let stderrIsTTY: Bool
    private let lock = Lock()
    private var buffer: [UInt8] = []
    private var jsonMode: Bool
    private var quietMode: Bool
    private var colorMode: Bool
    private var errorLocation: String?

    /// An output on the given descriptors.
    /// - Parameters:
    ///   - stdout: the descriptor for stdout (1 by default).
    ///   - stderr: the descriptor for stderr (2 by default).
    ///   - json: `--json` mode.
    ///   - quiet: `--quiet` mode.
    ///   - color: whether to use ANSI colors.
    ///   - isTTY: whether stdout is a terminal; nil asks `isatty`.
    ///   - width: the terminal's columns when stdout is one; nil asks the terminal (`TIOCGWINSZ`,
    ///     else `$COLUMNS`, else 80). Ignored when stdout is not a terminal.
    public init(stdout: Int32 = STDOUT_FILENO, stderr: Int32 = STDERR_FILENO, json: Bool = false,
                quiet: Bool = false, color: Bool = false, isTTY: Bool? = nil, width: Int? = nil) {
        standardOutput = stdout
        standardError = stderr
        let stdoutIsTTY = isTTY ?? SystemInfo.isTerminal(stdout)
        self.isTTY = stdoutIsTTY
        terminalWidth = stdoutIsTTY ? max(width ?? SystemInfo.terminalWidth(stdout), 20) : nil
        stderrIsTTY = isTTY ?? SystemInfo.isTerminal(stderr)
        jsonMode = json
        quietMode = quiet
        colorMode = color
    }

    deinit { flush() }

    /// True in `--json` mode: commands print `json`/`ndjson` instead of text.
    public var isJSON: Bool { lock.withLock { jsonMode } }
    /// True in `--quiet` mode: `info` prints nothing.
    public var isQuiet: Bool { lock.withLock { quietMode } }
    /// True when ANSI colors are on.
    public var useColor: Bool { lock.withLock { colorMode } }

    /// Switches modes once the settings are known (the dispatcher does this).
    public func configure(json: Bool, quiet: Bool, color: Bool) {
        lock.withLock {
            jsonMode = json
            quietMode = quiet
            colorMode = color
        }
    }

    /// Switches modes to match resolved settings.
    public func configure(_ settings: Settings) {
        configure(json: settings.json, quiet: settings.quiet, color: settings.color)
    }

    // MARK: stdout

    /// One line of human text on stdout (a newline is added). Not affected by `--quiet`.
    /// Interpolated values are escaped (see `TerminalText`).
    public func line(_ text: TerminalText) {
        writeBytes(text.rendered(color: useColor) + "\n")
    }

    /// Human text on stdout without a newline; values escaped as in `line`.
    public func write(_ text: TerminalText) {
        writeBytes(text.rendered(color: useColor))
    }

    /// Text on stdout exactly as it is, control characters included: only for what the program
    /// made itself (an ANSI-drawn QR code), never for a name or a value.
    public func writeVerbatim(_ text: String) {
        writeBytes(text)
    }

    private func writeBytes(_ text: String) {
        lock.withLock {
            buffer.append(contentsOf: text.utf8)
            if isTTY || buffer.count >= 65536 { flushLocked() }
        }
    }

    /// One JSON document on stdout: pretty-printed on a terminal, compact otherwise. (The JSON
    /// writer escapes control characters itself.)
    public func json(_ value: JSONValue) {
        writeBytes((isTTY ? value.prettyPrinted() : value.serialized()) + "\n")
    }

    /// One compact JSON line on stdout, flushed at once (for NDJSON streams).
    public func ndjson(_ value: JSONValue) {
        lock.withLock {
            buffer.append(contentsOf: value.serialized().utf8)
            buffer.append(UInt8(ascii: "\n"))
            flushLocked()
        }
    }

    /// Aligned columns for humans: the header (bold when colored), then the rows. Every cell is
    /// one value (escaped, so it stays on its line and in its column); columns are separated by
    /// two spaces; short rows are padded. With `fitting`, that column's cells are cut (ending in
    /// `…`) so that rows fit the terminal's width; only on a terminal, never when piped.
    public func table(_ header: [String], _ rows: [[String]], fitting column: Int? = nil) {
        let columns = max(header.count, rows.map(\.count).max() ?? 0)
        guard columns > 0 else { return }
        let header = header.map(TerminalEscaping.escapeValue)
        var rows = rows.map { $0.map(TerminalEscaping.escapeValue) }
        if let column, column < columns, let terminalWidth {
            var others = 2 * (columns - 1)
            for index in 0..<columns where index != column {
                others += ([header] + rows).map { index < $0.count ? $0[index].count : 0 }.max() ?? 0
            }
            let room = max(terminalWidth - others, Self.minimumFittedWidth)
            for index in rows.indices where column < rows[index].count {
                rows[index][column] = Self.cut(rows[index][column], to: room)
            }
        }
        var widths = [Int](repeating: 0, count: columns)
        for row in [header] + rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func render(_ row: [String]) -> String {
            var text = ""
            for index in 0..<columns {
                let cell = index < row.count ? row[index] : ""
                text += cell
                if index < columns - 1 { text += String(repeating: " ", count: widths[index] - cell.count + 2) }
            }
            while text.last == " " { text.removeLast() }
            return text
        }
        var text = ""
        if !header.isEmpty { text += TerminalText.styled(render(header), .bold).rendered(color: useColor) + "\n" }
        for row in rows { text += render(row) + "\n" }
        writeBytes(text)
    }

    /// `value` cut (ending in `…`) so that it fits the terminal after `used` columns of the line;
    /// unchanged when stdout is not a terminal. At least `minimumFittedWidth` columns are kept.
    public func fitted(_ value: String, after used: Int = 0) -> String {
        guard let terminalWidth else { return value }
        return Self.cut(value, to: max(terminalWidth - used, Self.minimumFittedWidth))
    }

    /// The fewest columns `fitted` and `table(_:_:fitting:)` cut a value to, however narrow
    /// the terminal.
    public static let minimumFittedWidth = 12

    static func cut(_ value: String, to width: Int) -> String {
        value.count > width ? String(value.prefix(max(width - 1, 0))) + "…" : value
    }

    /// `text` as one value in the style, colored when color is on (interpolate it in a line).
    public func styled(_ text: String, _ style: TextStyle) -> TerminalText {
        .styled(text, style)
    }

    /// Writes buffered stdout text now.
    public func flush() {
        lock.withLock { flushLocked() }
    }

    // MARK: stderr

    /// Whether progress chatter may be drawn: stderr is a terminal and neither `--quiet` nor
    /// `--json` was given.
    public var showsProgress: Bool {
        stderrIsTTY && !lock.withLock { quietMode || jsonMode }
    }

    /// Progress chatter on stderr; nothing in `--quiet` or `--json` mode.
    public func info(_ text: TerminalText) {
        let silent = lock.withLock { quietMode || jsonMode }
        if !silent { writeError(text.appending("\n")) }
    }

    /// `cloudsync: warning: <text>` on stderr (also in quiet and JSON mode).
    public func warning(_ text: TerminalText) {
        writeError("\(Dispatcher.programName): \("warning:", style: .yellow) \(text)\n")
    }

    /// `cloudsync: error: <text>` on stderr, for a command that reports an error and goes on.
    /// Layout lines after the first are printed as they are. In script mode the line's
    /// `FILE:LINE: ` (see `location`) comes before the text, as psql writes it.
    public func error(_ text: TerminalText) {
        if let location = lock.withLock({ errorLocation }) {
            writeError("\(Dispatcher.programName): \("error:", style: .red) \(location): \(text)\n")
        } else {
            writeError("\(Dispatcher.programName): \("error:", style: .red) \(text)\n")
        }
    }

    /// The script line (`FILE:LINE`, `-:LINE` for stdin) whose command this output serves; its
    /// errors name it.
    public var location: String? {
        get { lock.withLock { errorLocation } }
        set { lock.withLock { errorLocation = newValue } }
    }

    /// Human text on stderr (stdout is flushed first); values escaped as in `line`.
    public func writeError(_ text: TerminalText) {
        writeErrorVerbatim(text.rendered(color: useColor && stderrIsTTY))
    }

    /// One compact JSON document and a newline on stderr (`--json` errors).
    public func jsonError(_ value: JSONValue) {
        writeErrorVerbatim(value.serialized() + "\n")
    }

    /// Text on stderr exactly as it is (stdout is flushed first): only for control sequences
    /// the program made itself (redrawing a progress line), never for a name or a value.
    public func writeErrorVerbatim(_ text: String) {
        lock.withLock {
            flushLocked()
            FileSystem.writeAll(standardError, Array(text.utf8))
        }
    }

    private func flushLocked() {
        guard !buffer.isEmpty else { return }
        FileSystem.writeAll(standardOutput, buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
