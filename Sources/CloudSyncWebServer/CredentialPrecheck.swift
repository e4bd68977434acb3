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
        admission(path: path, query: query, headers: headers).refusal
    }

    /// `precheck`, noting the token or API token it found in force for `caller`.
    public func admission(path: String, query: [(String, String)], headers: [(String, String)]) -> CredentialAdmission {
        switch PresentedCredential(headers: headers, query: query) {
        case .serverKey(let keyID, let date?, _?):
            guard let time = ISO8601.milliseconds(from: date),
                  abs(time - clock()) <= ServerKeySignature.maxSkewMilliseconds else { return .refused(.dateOutsideWindow) }
            do { return Self.admission(try service.check(serverKeyID: keyID), unknown: .unknownServerKey, revoked: .revokedServerKey) }
            catch { return .admitted(nil) }
        case .serverKey:
            return .refused(.incompleteSignature)
        case .token(let token):
            guard PresentedCredential.isPlausible(token) else { return .refused(.malformedToken) }
            // A records modify on a token found in force before: its write confirms it.
            if path.hasSuffix(Self.confirmedByItsWrite), service.confirmsCredentialsInWrites,
               let row = service.cachedTokenCredential(token) {
                return .admitted(PrecheckedCredential(kind: .token, token: token, row: row, confirmedLater: true))
            }
            do {
                return Self.admission(try service.check(token: token), unknown: .unknownToken, revoked: .revokedToken,
                                      noting: (.token, token))
            } catch { return .admitted(nil) }
        case .apiToken(let token):
            guard PresentedCredential.isAPITokenShaped(token) else { return .refused(.malformedAPIToken) }
            do {
                return Self.admission(try service.check(apiToken: token), unknown: .unknownAPIToken, revoked: .revokedAPIToken,
                                      noting: (.apiToken, token))
            } catch { return .admitted(nil) }
        case .notBearer:
            return .refused(.notBearer)
        case .none:
            return .refused(.missing)
        }
    }

    /// The endpoint admitted on a cached token (`CredentialConfirmation`): the one whose work
    /// is a write transaction, which confirms the token with its first reads.
    static let confirmedByItsWrite = "/" + WebServicesEndpoint.recordsModify.rawValue

    /// The admission a credential check calls for: refused unless it is in force; a token in
    /// force is noted (`noting`) for `caller`.
    static func admission(_ check: CredentialCheck, unknown: CredentialRefusal, revoked: CredentialRefusal,
                          noting presented: (PrecheckedCredential.Kind, String)? = nil) -> CredentialAdmission {
        switch check {
        case .inForce(let row): .admitted(presented.map { PrecheckedCredential(kind: $0.0, token: $0.1, row: row) })
        case .unknown: .refused(unknown)
        case .revoked: .refused(revoked)
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
