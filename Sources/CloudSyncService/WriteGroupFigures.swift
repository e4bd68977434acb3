/// How a storage that carries the queued writes of one database in one transaction (group
/// commit, issue 28) has grouped them since the process started.
public struct WriteGroupFigures: Sendable, Equatable {
    /// Transactions run for grouped writes.
    public var groups: Int
    /// Writes they carried.
    public var writes: Int
    /// The most writes one transaction carried.
    public var largest: Int

    /// The figures.
    public init(groups: Int, writes: Int, largest: Int) {
        self.groups = groups
        self.writes = writes
        self.largest = largest
    }

    /// One line: "group commit: G transactions carried W writes (mean M, largest L)".
    public var line: String {
        let mean = groups == 0 ? 0 : Double(writes) / Double(groups)
        let shown = (mean * 100).rounded() / 100
        return "group commit: \(groups) transactions carried \(writes) writes (mean \(shown), largest \(largest))"
    }
}

/// A storage that groups writes (`WriteGroupFigures`).
public protocol WriteGrouping: AnyObject, Sendable {
    /// The grouping so far.
    var writeGroupFigures: WriteGroupFigures { get }
}
