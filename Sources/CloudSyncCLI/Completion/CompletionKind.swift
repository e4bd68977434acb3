/// What a shell completion script or the REPL should offer for an option value or a positional
/// argument. The generators read it from the command table; the parser also uses `.values` to
/// validate the input.
///
/// Live kinds are open: a command family declares its own (`CompletionKind.live(LiveCompletion(
/// "otpName", provider: …))` in its module) with the closure that lists the values, and the
/// CLI module does not change. The kinds served from the cloud (`zoneName`, `recordType`,
/// `recordName`, `kvKey`) are declared the same way in CloudSyncSession.
public enum CompletionKind: Sendable, Hashable {
    /// Nothing in particular (free text).
    case none
    /// A path on the local file system.
    case file
    /// One of a closed set of words. The parser rejects anything else with a usage error.
    case values([String])
    /// Values read when completing (from the cloud or this device), by a named kind's provider.
    case live(LiveCompletion)

    /// The live kind, if this is one.
    public var live: LiveCompletion? {
        if case .live(let live) = self { return live }
        return nil
    }

}

/// A kind of live completion value: its name (what `LiveValueSource` and tests key it by) and
/// the provider that lists the values. Two kinds are the same kind when their names are equal.
public struct LiveCompletion: Sendable, Hashable, CustomStringConvertible {
    /// The kind's name (`zoneName`, `otpName`, …).
    public let name: String
    /// Lists the values; nil for a kind served only through a `LiveValueSource`.
    public let provider: LiveValueSource.Provider?

    /// A live kind named `name`, listed by `provider`.
    public init(_ name: String, provider: LiveValueSource.Provider? = nil) {
        self.name = name
        self.provider = provider
    }

    public static func == (lhs: LiveCompletion, rhs: LiveCompletion) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }
}
