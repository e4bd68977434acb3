import CloudSyncCLI
import CloudSyncCore
import CloudSyncService
import CloudSyncWebClient

extension HTTPCloud {
    /// A `cloudsync serve` as `CloudLocator` opens it: `http://` and `https://` URLs, registered
    /// at the composition root. The client sends the token the request finds for the server's
    /// URL (`CommandContext.remoteToken(for:)`) and trusts the PEM certificates of
    /// `$CLOUDSYNC_CA_FILE` (a server with its own certificate).
    public static let backend = CloudBackendRegistration(
        name: "http", form: .url(prefixes: ["http://", "https://"]), acceptedForms: "http://HOST:PORT or https://HOST:PORT"
    ) { locator, request in
        let base = CommandContext.normalizedServerURL(locator.url)
        let token = request.token(base)
        if let token, !token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) {
            throw CLIError.usage("the token for \(base) holds spaces or control characters; check CLOUDSYNC_TOKEN or the config file")
        }
        let caFile = request.environment["CLOUDSYNC_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = HTTPCloudConfiguration(baseURL: base, token: { _ in token }, caFile: caFile)
        if let container = request.defaultContainer { configuration.defaultContainer = container }
        return HTTPCloud(configuration: configuration)
    }
}

extension CloudLocator {
    /// True for the URL of a `cloudsync serve` (the `http` backend): a server the CLI logs in
    /// to with a token, never the cloud's store itself.
    public var isWebServicesServer: Bool { backend == HTTPCloud.backend.name }
}
