import CloudSyncCLI
import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto
import CloudSyncWebClient

/// Issue 26: a command for a `cloudsync serve` with a token and no account setting acts as the
/// token's account. The server is asked once (`users/current`); the answer is kept with the
/// stored login (`StoredLogin`), or, for a token of `$CLOUDSYNC_TOKEN` or the config file, in
/// `<state>/credential-accounts/` under the SHA-256 of the URL and token (0600). When the
/// server cannot answer, the default account stays (the command then fails as it would).
public enum AccountFromCredential {
    /// The resolver registered with `AccountResolution`.
    public static func resolve(_ settings: Settings, _ environment: [String: String]) -> (account: String, source: String)? {
        guard let locator = try? CloudLocator(parsing: settings.cloudURL), locator.isWebServicesServer else { return nil }
        let base = CommandContext.normalizedServerURL(locator.url)
        guard let token = CommandContext.remoteToken(for: base, settings: settings, environment: environment) else { return nil }
        let source = "the token for \(base)"
        let loginPath = CommandContext.loginTokenPath(for: base, settings: settings)
        let stored = StoredLogin.read(loginPath).flatMap { $0.token == token ? $0 : nil }
        let cachePath = settings.stateDirectory + "/credential-accounts/"
            + Hex.encode(SHA256.digest(Array((base + "\n" + token).utf8)))
        if let account = stored?.account ?? StoredLogin.read(cachePath)?.account { return (account, source) }
        let caFile = environment["CLOUDSYNC_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let account = try? ask(base, token: token, container: settings.container, caFile: caFile) else { return nil }
        if let stored {
            try? StoredLogin(token: stored.token, account: account).write(to: loginPath)
        } else {
            // The cache keeps a digest in place of the token: the token itself stays where it was given.
            try? StoredLogin(token: "sha256:" + Hex.encode(SHA256.digest(Array(token.utf8))), account: account).write(to: cachePath)
        }
        return (account, source)
    }

    /// The account `token` is for, as the server at `url` answers `users/current`.
    /// - Throws: `notAuthenticated` for a refused token, `networkUnavailable` when no server answers.
    public static func ask(_ url: String, token: String, container: String, caFile: String?) throws(CloudError) -> String {
        let cloud = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: url, defaultContainer: container,
                                                                    token: { _ in token }, requestTimeout: 30, caFile: caFile))
        let account = try cloud.credentialAccount()
        guard Settings.isValidName(account) else {
            throw CloudError(.networkFailure, "\(url) says the token is for \(NameRules.quoted(account)), which is not an account name")
        }
        return account
    }
}
