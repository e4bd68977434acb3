import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// What a request with an API token alone (`ckAPIToken`, no user) may do, as Apple's Web Services
/// allow: read the public database of the token's container, where the schema's grants let
/// `_world` read (the service checks the grants against a request with no user record name).
/// Anything that needs a user is 421 AUTHENTICATION_REQUIRED with a `redirectURL` where one can
/// learn to get a token (`GET /sign-in`, a plain-text page of this server).
enum AnonymousAccess {
    /// The path of the sign-in page every 421 points to.
    static let signInPath = "/sign-in"

    /// The endpoints an API token may call, in the public database only.
    static let readEndpoints: Set<WebServicesEndpoint> = [
        .recordsQuery, .recordsLookup, .zonesList, .zonesLookup, .assetsDownload,
    ]

    /// Whether an API token may make this call.
    static func allows(_ path: WebServicesPath) -> Bool {
        path.scope == .public && readEndpoints.contains(path.endpoint)
    }

    /// The text of `GET /sign-in`.
    static let signInText = """
        This cloudsync server signs no one in through the web. To act as a user, get a token from \
        its operator (cloudsync token create --account NAME) and send it as Authorization: Bearer \
        TOKEN or ?ckWebAuthToken=TOKEN; with cloudsync itself, run cloudsync login URL. An API token \
        (?ckAPIToken=…) alone reads the public database where the schema lets _world read.

        """
}

extension WebServicesHandler {
    /// The 421 AUTHENTICATION_REQUIRED of a call an API token alone may not make.
    func authenticationRequired(_ path: WebServicesPath, request: WebServicesRequest, uuid: String) -> WebServicesResponse {
        let reason = "\(path.endpoint.rawValue) in the \(path.scope.rawValue) database needs a signed-in user; "
            + "an API token alone reads the public database only"
        // `--public-url`, else this request's own scheme and (checked) Host, as asset URLs are made.
        let base = AssetGrants.base(publicURL: assetGrants?.publicURL, scheme: scheme, host: request.header("Host"))
        return errorResponse(CloudError(.notAuthenticated, reason), status: 421, uuid: uuid, serverErrorCode: "AUTHENTICATION_REQUIRED",
                             extra: [("redirectURL", .string(base + AnonymousAccess.signInPath))])
    }

    /// `GET /sign-in`: how to get a token here.
    func signInPage() -> WebServicesResponse {
        WebServicesResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")],
                            body: Array(AnonymousAccess.signInText.utf8))
    }
}
