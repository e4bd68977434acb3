import CloudSyncCLI

/// The progress line of `record query --all`: the records fetched so far, redrawn in place on
/// stderr after each page, only when stderr is a terminal (not with --quiet or --json), and
/// erased when the query ends, so a long query is not silent and a pipe gets nothing extra.
final class QueryProgress {
    private let output: Output
    private let enabled: Bool
    private var drawn = false
    /// Carriage return and "erase line".
    private static let clearLine = "\r\u{1B}[2K"

    init(_ output: Output, following: Bool) {
        self.output = output
        self.enabled = following && output.showsProgress
    }

    /// Shows `count` records fetched so far.
    func update(_ count: Int) {
        guard enabled else { return }
        output.writeErrorVerbatim(Self.clearLine + "fetched \(count) records…")
        drawn = true
    }

    /// Erases the line.
    func finish() {
        if drawn { output.writeErrorVerbatim(Self.clearLine) }
        drawn = false
    }
}
