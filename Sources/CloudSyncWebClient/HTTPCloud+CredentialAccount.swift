import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

extension HTTPCloud {
    /// The login name of the account the configured token belongs to: `users/current` of the
    /// default container's public database, sent without naming an account, so the server
    /// answers for the credential's own account (issue 26: a command without `--account` acts
    /// as its token's account; `cloudsync login` checks a token with it).
    ///
    /// - Throws: `notAuthenticated` (exit 77) for a refused token, `networkUnavailable` (69)
    ///   for a server that is not there, `networkFailure` for a reply without an account.
    public func credentialAccount() throws(CloudError) -> String {
        let reply = try send(.usersCurrent, container: configuration.defaultContainer, scope: .public,
                             account: "", device: nil, body: Array("{}".utf8))
        guard let json = try? JSONValue.parse(bytes: reply.body), let name = json["accountName"]?.stringValue, !name.isEmpty else {
            throw CloudError(.networkFailure, "\(configuration.baseURL) answered users/current without an account name; is it a cloudsync serve?")
        }
        return name
    }
}
