import CloudSyncCLI
import CloudSyncDevice

/// A one-line progress bar on stderr, redrawn in place; silent when disabled.
final class ProgressBar {
    let enabled: Bool
    let output: Output
    var drawn = false
    /// Carriage return and "erase line": the bar is redrawn in place.
    private static let clearLine = "\r\u{1B}[2K"

    init(enabled: Bool, output: Output) {
        self.enabled = enabled
        self.output = output
    }

    func show(_ progress: SyncProgress) {
        guard enabled else { return }
        let text: String
        switch progress {
        case .pushing(let done, let total):
            let width = 30
            let filled = total == 0 ? width : width * done / max(total, 1)
            text = "pushing [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)"
        case .pulling(let records):
            text = "pulling \(records) records"
        }
        output.writeErrorVerbatim(Self.clearLine + TerminalEscaping.escapeText(text))
        drawn = true
    }

    func finish() {
        if drawn { output.writeErrorVerbatim(Self.clearLine) }
    }
}
