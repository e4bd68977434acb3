/// How a storage that carries queued writes in one transaction (group commit, issue 28) has
/// grouped them since the process started.
public struct WriteGroupFigures: Sendable, Equatable {
    /// Transactions run for grouped writes.
    public var groups: Int
    /// Writes they carried.
    public var writes: Int
    /// The most writes one transaction carried.
    public var largest: Int
    /// Transactions that carried writes of more than one database.
    public var mixed: Int

    /// The figures.
    public init(groups: Int, writes: Int, largest: Int, mixed: Int = 0) {
        self.groups = groups
        self.writes = writes
        self.largest = largest
        self.mixed = mixed
    }

    /// One line: "group commit: G transactions carried W writes (mean M, largest L, X of several
    /// databases)".
    public var line: String {
        let mean = groups == 0 ? 0 : Double(writes) / Double(groups)
        let shown = (mean * 100).rounded() / 100
        return "group commit: \(groups) transactions carried \(writes) writes (mean \(shown), largest \(largest), \(mixed) of several databases)"
    }
}

/// A storage that groups writes (`WriteGroupFigures`).
public protocol WriteGrouping: AnyObject, Sendable {
    /// The grouping so far.
    var writeGroupFigures: WriteGroupFigures { get }
}
