import Synchronization

/// How an invocation that names no account (no `--account`, `CLOUDSYNC_ACCOUNT` or config
/// `account`) finds one beyond the default: the session layer registers a resolver at the
/// composition root (`SessionSettings.registerChecks()`) that asks a server which account its
/// token is for. The dispatcher applies it after `Settings.resolve` (which stays offline).
public enum AccountResolution {
    /// The account of the invocation's credential and a phrase naming where it came from, or nil.
    public typealias Resolver = @Sendable (_ settings: Settings, _ environment: [String: String]) -> (account: String, source: String)?

    /// Makes the dispatcher ask `resolver` when no account was given (the latest registration wins).
    public static func register(_ resolver: @escaping Resolver) {
        registered.withLock { $0 = ResolverBox(resolver) }
    }

    /// `settings` with the resolver's account when none was given; as they are otherwise.
    static func apply(_ settings: Settings, environment: [String: String]) -> Settings {
        guard settings.accountSource == nil, let box = registered.withLock({ $0 }),
              let (account, source) = box.resolver(settings, environment), Settings.isValidName(account) else { return settings }
        var resolved = settings
        resolved.account = account
        resolved.accountSource = source
        return resolved
    }
}

private final class ResolverBox: Sendable {
    let resolver: AccountResolution.Resolver
    init(_ resolver: @escaping AccountResolution.Resolver) { self.resolver = resolver }
}

private let registered = Mutex<ResolverBox?>(nil)
