/// A benchmark that could not run or produced a wrong result (e.g. a record count mismatch).
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
