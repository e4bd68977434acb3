import CloudSyncCore
import Glibc

/// Where a command prints. Human text and JSON go to stdout, chatter, warnings and errors to
/// stderr. It knows the `--json`, `--quiet` and color settings and whether stdout is a
/// terminal. stdout is buffered (line by line on a terminal) and flushed before anything goes
/// to stderr, so the two stay in order; the dispatcher flushes at the end.
///
/// Commands receive one through `CommandContext.output`; tests build one on file descriptors.
public final class Output: @unchecked Sendable {
    /// The descriptor human text and JSON are written to.
    public let standardOutput: Int32
    /// The descriptor chatter, warnings and errors are written to.
    public let standardError: Int32
    /// True if stdout is a terminal: JSON is pretty-printed, output is line-buffered.
    public let isTTY: Bool
    private let stderrIsTTY: Bool
    private let lock = Lock()
    private var buffer: [UInt8] = []
    private var jsonMode: Bool
    private var quietMode: Bool
    private var colorMode: Bool

    /// An output on the given descriptors.
    /// - Parameters:
    ///   - stdout: the descriptor for stdout (1 by default).
    ///   - stderr: the descriptor for stderr (2 by default).
    ///   - json: `--json` mode.
    ///   - quiet: `--quiet` mode.
    ///   - color: whether to use ANSI colors.
    ///   - isTTY: whether stdout is a terminal; nil asks `isatty`.
    public init(stdout: Int32 = STDOUT_FILENO, stderr: Int32 = STDERR_FILENO, json: Bool = false,
                quiet: Bool = false, color: Bool = false, isTTY: Bool? = nil) {
        standardOutput = stdout
        standardError = stderr
        self.isTTY = isTTY ?? SystemInfo.isTerminal(stdout)
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
    public func line(_ text: String) {
        write(text + "\n")
    }

    /// Text on stdout as it is, without a newline.
    public func write(_ text: String) {
        lock.withLock {
            buffer.append(contentsOf: text.utf8)
            if isTTY || buffer.count >= 65536 { flushLocked() }
        }
    }

    /// One JSON document on stdout: pretty-printed on a terminal, compact otherwise.
    public func json(_ value: JSONValue) {
        line(isTTY ? value.prettyPrinted() : value.serialized())
    }

    /// One compact JSON line on stdout, flushed at once (for NDJSON streams).
    public func ndjson(_ value: JSONValue) {
        lock.withLock {
            buffer.append(contentsOf: value.serialized().utf8)
            buffer.append(UInt8(ascii: "\n"))
            flushLocked()
        }
    }

    /// Aligned columns for humans: the header (bold when colored), then the rows. Columns are
    /// separated by two spaces; short rows are padded.
    public func table(_ header: [String], _ rows: [[String]]) {
        let columns = max(header.count, rows.map(\.count).max() ?? 0)
        guard columns > 0 else { return }
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
        if !header.isEmpty { text += styled(render(header), .bold) + "\n" }
        for row in rows { text += render(row) + "\n" }
        write(text)
    }

    /// `text` wrapped in the ANSI style when color is on, unchanged otherwise.
    public func styled(_ text: String, _ style: TextStyle) -> String {
        useColor ? style.escape + text + TextStyle.reset : text
    }

    /// Writes buffered stdout text now.
    public func flush() {
        lock.withLock { flushLocked() }
    }

    // MARK: stderr

    /// Progress chatter on stderr; nothing in `--quiet` or `--json` mode.
    public func info(_ text: String) {
        let silent = lock.withLock { quietMode || jsonMode }
        if !silent { writeError(text + "\n") }
    }

    /// `cloudsync: warning: <text>` on stderr (also in quiet and JSON mode).
    public func warning(_ text: String) {
        writeError(Dispatcher.programName + ": " + errorStyled("warning:", .yellow) + " " + text + "\n")
    }

    /// `cloudsync: error: <text>` on stderr, for a command that reports an error and goes on.
    /// Lines after the first are printed as they are.
    public func error(_ text: String) {
        writeError(Dispatcher.programName + ": " + errorStyled("error:", .red) + " " + text + "\n")
    }

    /// Text on stderr as it is (stdout is flushed first).
    public func writeError(_ text: String) {
        lock.withLock {
            flushLocked()
            FileSystem.writeAll(standardError, Array(text.utf8))
        }
    }

    private func errorStyled(_ text: String, _ style: TextStyle) -> String {
        useColor && stderrIsTTY ? style.escape + text + TextStyle.reset : text
    }

    private func flushLocked() {
        guard !buffer.isEmpty else { return }
        FileSystem.writeAll(standardOutput, buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
