/// Everything a command needs besides its arguments, one per invocation: the resolved settings,
/// the output, the environment and whether a human is at the keyboard.
///
/// Extensions (such as opening the cloud for `settings.cloudURL`) can keep per-invocation
/// objects with `memoized(_:_:)`; they are released with the context when the command ends.
public final class CommandContext: @unchecked Sendable {
    /// The resolved global context (account, device, container, cloud, home, json, quiet, color).
    public let settings: Settings
    /// Where to print.
    public let output: Output
    /// The environment of the invocation (not necessarily the process environment, in tests).
    public let environment: [String: String]
    private let lock = Lock(recursive: true)
    private var interactive: Bool
    private var runningDispatcher: Dispatcher?
    private var runningPath: [String] = []
    private var cache: [String: Any] = [:]

    /// A context; the dispatcher builds one per invocation, tests may build their own.
    public init(settings: Settings, output: Output, environment: [String: String] = [:],
                isInteractive: Bool = false) {
        self.settings = settings
        self.output = output
        self.environment = environment
        self.interactive = isInteractive
    }

    /// True if stdin is a terminal, so the command may prompt.
    public var isInteractive: Bool {
        get { lock.withLock { interactive } }
        set { lock.withLock { interactive = newValue } }
    }

    /// The dispatcher running this command, nil when a test builds the context by hand. The
    /// REPL, completion and documentation generators read the command table and version from it.
    public var dispatcher: Dispatcher? {
        get { lock.withLock { runningDispatcher } }
        set { lock.withLock { runningDispatcher = newValue } }
    }

    /// The words of the running command (`["zone", "list"]`), empty when a test builds the
    /// context by hand: what the cloud-file rule (`CloudCreation`) decides by.
    public var commandPath: [String] {
        get { lock.withLock { runningPath } }
        set { lock.withLock { runningPath = newValue } }
    }

    /// The value stored under `key` for this invocation, made by `make` on first use. `make`
    /// may itself call `memoized` for another key; an error from `make` stores nothing.
    public func memoized<T>(_ key: String, _ make: () throws -> T) rethrows -> T {
        try lock.withLock {
            if let value = cache[key] as? T { return value }
            let value = try make()
            cache[key] = value
            return value
        }
    }

    /// Releases what `memoized` kept (the cloud session, device stores, connections). The
    /// dispatcher calls it when the command ends: a session refers back to its context, so
    /// without this a REPL or script would keep every line's cloud connection open.
    public func releaseMemoized() {
        let released = lock.withLock { () -> [String: Any] in
            let kept = cache
            cache = [:]
            return kept
        }
        _ = released  // dropped here, outside the lock: closing a connection may take a moment
    }
}
