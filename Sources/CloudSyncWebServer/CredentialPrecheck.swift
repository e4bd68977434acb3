import CloudSyncService
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebProtocol

/// Why a request's credential is refused from its headers and query string alone, before any
/// byte of its body is read (`WebServicesAuthenticator.precheck`). The body-signed parts (a
/// server-to-server signature) are still checked in full once the body is in.
public enum CredentialRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `Authorization`, `ckWebAuthToken`, `ckAPIToken` or server-to-server key ID at all.
    case missing
    /// `Authorization` is not `Bearer TOKEN`.
    case notBearer
    /// The token is empty or longer than any token made (256 bytes).
    case malformedToken
    /// No stored token has this value.
    case unknownToken
    /// The token was revoked (`token revoke`).
    case revokedToken
    /// `ckAPIToken` is not 64 lowercase hex characters.
    case malformedAPIToken
    /// No stored API token has this value.
    case unknownAPIToken
    /// The API token was revoked.
    case revokedAPIToken
    /// A signed request whose signature is not the key's over this date, body and path, or that
    /// was seen already (a replay).
    case badSignature
    /// A server-to-server key ID without its date or signature header.
    case incompleteSignature
    /// No registered server-to-server key has this ID.
    case unknownServerKey
    /// The server-to-server key with this ID was revoked.
    case revokedServerKey
    /// The signed request's date is not a date, or more than 5 minutes from the server's clock.
    case dateOutsideWindow
    /// An asset URL's grant is malformed, forged, tampered with, expired or for another request.
    case assetGrant(AssetGrantRefusal)

    public var description: String {
        switch self {
        case .missing: "authentication failed: give Authorization: Bearer TOKEN or ckWebAuthToken"
        case .notBearer: "authentication failed: the Authorization header must be 'Bearer TOKEN'"
        case .malformedToken: "authentication failed: the token is empty or too long"
        case .unknownToken: "authentication failed: the token is unknown"
        case .revokedToken: "authentication failed: the token was revoked"
        case .malformedAPIToken: "authentication failed: ckAPIToken must be 64 lowercase hex characters"
        case .unknownAPIToken: "authentication failed: the API token is unknown"
        case .revokedAPIToken: "authentication failed: the API token was revoked"
        case .badSignature: "authentication failed: the signature does not match the key, date, body and path, or the request was used already"
        case .incompleteSignature: "authentication failed: a server-to-server key ID needs its date and signature headers"
        case .unknownServerKey: "authentication failed: no server-to-server key has this ID"
        case .revokedServerKey: "authentication failed: the server-to-server key with this ID was revoked"
        case .dateOutsideWindow: "authentication failed: the signed request's date is more than 5 minutes from the server's clock"
        case .assetGrant(let refusal): refusal.description
        }
    }
}

extension WebServicesAuthenticator {
    /// Lets every request through to the full check (an authenticator that only judges bodies).
    public func precheck(path: String, query: [(String, String)], headers: [(String, String)]) -> CredentialRefusal? {
        nil
    }
}

extension StoredCredentialAuthenticator {
    /// Refuses what the headers and query already show to be bad: no credential at all, a token
    /// that no stored token matches, a server-to-server key ID that is not registered or whose
    /// date is outside the 5-minute window, an API token that is not one. One whose credential
    /// cannot be looked up now (storage down) goes on: the full check answers that. The signature
    /// needs the body: `caller(...)` checks it.
    public func precheck(path: String, query: [(String, String)], headers: [(String, String)]) -> CredentialRefusal? {
        switch PresentedCredential(headers: headers, query: query) {
        case .serverKey(let keyID, let date?, _?):
            guard let time = ISO8601.milliseconds(from: date),
                  abs(time - clock()) <= ServerKeySignature.maxSkewMilliseconds else { return .dateOutsideWindow }
            do { return Self.refusal(try service.check(serverKeyID: keyID), unknown: .unknownServerKey, revoked: .revokedServerKey) }
            catch { return nil }
        case .serverKey:
            return .incompleteSignature
        case .token(let token):
            guard PresentedCredential.isPlausible(token) else { return .malformedToken }
            do { return Self.refusal(try service.check(token: token), unknown: .unknownToken, revoked: .revokedToken) }
            catch { return nil }
        case .apiToken(let token):
            guard PresentedCredential.isAPITokenShaped(token) else { return .malformedAPIToken }
            do { return Self.refusal(try service.check(apiToken: token), unknown: .unknownAPIToken, revoked: .revokedAPIToken) }
            catch { return nil }
        case .notBearer:
            return .notBearer
        case .none:
            return .missing
        }
    }

    /// The refusal a credential check calls for: none when it is in force.
    static func refusal(_ check: CredentialCheck, unknown: CredentialRefusal, revoked: CredentialRefusal) -> CredentialRefusal? {
        switch check {
        case .inForce: nil
        case .unknown: unknown
        case .revoked: revoked
        }
    }
}

extension WebServicesHandler {
    /// The 401 `AUTHENTICATION_FAILED` reply (CloudKit error body) of a credential refused from
    /// the head; the server sends it and closes the connection, the body unread.
    public func refusalResponse(_ refusal: CredentialRefusal) -> HTTPResponse {
        let answer = errorResponse(CloudError(.notAuthenticated, refusal.description), status: 401, uuid: makeUUID(),
                                   serverErrorCode: WebServicesError.authenticationFailed)
        var headers = HTTPHeaders()
        for (name, value) in answer.headers { headers.add(name, value) }
        headers.set("Connection", "close")
        return HTTPResponse(status: answer.status, headers: headers, body: answer.body)
    }
}
