/// A worked example shown in help and man pages.
public struct Example: Sendable, Hashable {
    /// The command line, starting with `cloudsync`.
    public let command: String
    /// What it does, in a sentence.
    public let explanation: String

    /// Describes an example: the command line and what it does.
    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}
