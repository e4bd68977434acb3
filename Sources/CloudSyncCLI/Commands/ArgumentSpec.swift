/// One positional argument of a command.
public struct ArgumentSpec: Sendable, Hashable {
    /// The name, shown as `<name>` in usage and used with `ParsedArguments.argument(_:)`.
    public let name: String
    /// One or two sentences for help.
    public let help: String
    /// Whether the argument may be left out.
    public let optional: Bool
    /// Whether the argument takes every remaining positional (`<name>...`).
    public let repeating: Bool
    /// What to complete for the argument.
    public let completion: CompletionKind

    /// Describes a positional argument.
    public init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false,
                completion: CompletionKind = .none) {
        self.name = name
        self.help = help
        self.optional = optional
        self.repeating = repeating
        self.completion = completion
    }
}
