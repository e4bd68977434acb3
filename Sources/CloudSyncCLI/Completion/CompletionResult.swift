/// One word the completion engine offers.
public struct CompletionCandidate: Sendable, Hashable {
    /// The word to insert.
    public var value: String
    /// A short explanation (the abstract of a command, the help of an option), or empty.
    public var description: String

    /// A candidate word with an optional description.
    public init(_ value: String, description: String = "") {
        self.value = value
        self.description = description
    }
}

/// What to offer for the word under the cursor.
public enum CompletionResult: Sendable, Hashable {
    /// These words (possibly none), already filtered by the typed prefix.
    case candidates([CompletionCandidate])
    /// A path on the local file system: the caller completes file names itself.
    case files

    /// The candidate words, empty for `.files`.
    public var values: [String] {
        if case .candidates(let list) = self { return list.map(\.value) }
        return []
    }
}
