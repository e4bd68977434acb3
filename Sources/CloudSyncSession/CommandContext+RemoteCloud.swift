import CloudSyncCLI
import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncCrypto
import CloudSyncWebClient
#if canImport(Glibc)
import Glibc
#endif

extension CommandContext {
    /// Opens the cloud of `locator` with the backend registered for it, giving it this
    /// invocation's clock, container, environment and server token (`remoteToken(for:)`).
    public func openCloud(_ locator: CloudLocator) throws -> any CloudService {
        let request = CloudOpenRequest(defaultContainer: settings.container, environment: environment,
                                       token: { [settings, environment] url in
                                           Self.remoteToken(for: url, settings: settings, environment: environment)
                                       })
        let opened: Result<any CloudService, any Error> = Result { try locator.open(request) }
        if case .failure(let error as CloudError) = opened, SQLiteCloud.isFileAccessFailure(error) {
            throw CLIError.ioError(error.reason)  // a local file, not an unreachable cloud: 74
        }
        return try opened.get()
    }

    /// The token sent to a `cloudsync serve` at `url`: `$CLOUDSYNC_TOKEN`, else the config file's
    /// `token`, else what `cloudsync login URL` stored; nil when there is none.
    public func remoteToken(for url: String) -> String? {
        Self.remoteToken(for: url, settings: settings, environment: environment)
    }

    /// `remoteToken(for:)` before a context exists (the account resolution of the dispatcher).
    public static func remoteToken(for url: String, settings: Settings, environment: [String: String]) -> String? {
        if let value = environment["CLOUDSYNC_TOKEN"], !value.isEmpty { return value }
        if let entry = ConfigFile.load(path: settings.configPath).entries["token"], !entry.value.isEmpty { return entry.value }
        return StoredLogin.read(loginTokenPath(for: url, settings: settings))?.token
    }

    /// Where `cloudsync login URL` keeps the token of a server (0600, in a 0700 folder under the
    /// state folder), keyed by the SHA-256 of the normalised URL.
    public func loginTokenPath(for url: String) -> String {
        Self.loginTokenPath(for: url, settings: settings)
    }

    static func loginTokenPath(for url: String, settings: Settings) -> String {
        settings.stateDirectory + "/logins/" + Hex.encode(SHA256.digest(Array(normalizedServerURL(url).utf8)))
    }

    /// A server URL without trailing slashes.
    public static func normalizedServerURL(_ url: String) -> String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}
