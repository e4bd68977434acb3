/// What a live-value provider is asked: which kind of value, for which partly typed command,
/// as which account and device.
public struct LiveValueQuery: Sendable {
    /// The kind of value wanted (`.zoneName`, `.recordType`, …).
    public let kind: CompletionKind
    /// The command names from the top (`["record", "get"]`).
    public let commandPath: [String]
    /// The options and positionals typed so far (`value("zone")`, `argument("type")`).
    public let arguments: ParsedArguments
    /// The typed start of the value.
    public let prefix: String
    /// The context, resolved from the global options on the line and the environment.
    public let settings: Settings
    /// The environment the context was resolved from.
    public let environment: [String: String]

    /// A query; the engine builds these.
    public init(kind: CompletionKind, commandPath: [String], arguments: ParsedArguments, prefix: String,
                settings: Settings, environment: [String: String]) {
        self.kind = kind
        self.commandPath = commandPath
        self.arguments = arguments
        self.prefix = prefix
        self.settings = settings
        self.environment = environment
    }

    /// A command context that prints nowhere, for opening the cloud as `settings` says.
    public func context() -> CommandContext {
        CommandContext(settings: settings, output: Output(stdout: -1, stderr: -1, isTTY: false),
                       environment: environment, isInteractive: false)
    }
}

/// The providers of live completion values (zone names, record types, subscription IDs, KV
/// keys, OTP names, …), one per live `CompletionKind`. The REPL and `cloudsync __complete` ask
/// it for every live kind of the command table. A kind carries its own provider
/// (`LiveCompletion.provider`), so a family that adds a kind declares it in its own module;
/// `adding(_:_:)` replaces a kind's provider (tests do).
///
/// Providers should be quick and must not change anything; an error means "no candidates".
public struct LiveValueSource: Sendable {
    /// Returns the values of one kind (unfiltered, or filtered by `query.prefix` if that is cheaper).
    public typealias Provider = @Sendable (LiveValueQuery) throws -> [String]

    private var providers: [CompletionKind: Provider]

    /// A source with the given providers.
    public init(_ providers: [CompletionKind: Provider] = [:]) {
        self.providers = providers
    }

    /// This source with `provider` for `kind` (replacing any earlier one).
    public func adding(_ kind: CompletionKind, _ provider: @escaping Provider) -> LiveValueSource {
        var copy = self
        copy.providers[kind] = provider
        return copy
    }

    /// True if some provider answers `kind`: one added here, else the kind's own.
    public func provides(_ kind: CompletionKind) -> Bool { provider(for: kind) != nil }

    /// The provider of `kind`: one added here (which wins, so tests and the executable can
    /// replace it), else the one the kind carries.
    func provider(for kind: CompletionKind) -> Provider? { providers[kind] ?? kind.live?.provider }

    /// The values for `query`, deduplicated, in the provider's order; empty on any error.
    public func values(_ query: LiveValueQuery) -> [String] {
        guard let provider = provider(for: query.kind), let values = try? provider(query) else { return [] }
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
