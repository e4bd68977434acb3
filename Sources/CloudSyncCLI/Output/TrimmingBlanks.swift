extension Substring {
    /// Without leading and trailing blanks.
    package func trimmingBlanks() -> Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<end]
    }
}

extension String {
    /// Without leading and trailing blanks.
    func trimmingBlanksAround() -> String { String(Substring(self).trimmingBlanks()) }
}
