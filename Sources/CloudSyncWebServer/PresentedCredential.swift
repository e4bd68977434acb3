import CloudSyncWebProtocol
/// The credential a request's head presents, read once from its headers and query string for
/// both checks: the pre-check before the body (`CredentialPrecheck.swift`) and the full check
/// (`StoredCredentialAuthenticator.caller`).
enum PresentedCredential: Equatable {
    /// A server-to-server key ID, with its date and signature headers when present.
    case serverKey(keyID: String, date: String?, signature: String?)
    /// A bearer token (`Authorization: Bearer TOKEN`) or `?ckWebAuthToken=TOKEN`, as given.
    case token(String)
    /// `?ckAPIToken=TOKEN` alone (with a web token too, the request is the web token's user's).
    case apiToken(String)
    /// An `Authorization` header that is not `Bearer TOKEN`.
    case notBearer
    /// Nothing that names a user.
    case none

    /// The longest token accepted (tokens made here are 68 bytes).
    static let maxTokenBytes = 256

    init(headers: [(String, String)], query: [(String, String)]) {
        func header(_ name: String) -> String? {
            let lower = name.lowercased()
            return headers.first { $0.0.lowercased() == lower }?.1
        }
        if let keyID = header(ServerKeySignature.keyIDHeader) {
            self = .serverKey(keyID: keyID, date: header(ServerKeySignature.dateHeader),
                              signature: header(ServerKeySignature.signatureHeader))
        } else if let authorization = header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            self = parts.count == 2 && parts[0].lowercased() == "bearer" ? .token(String(parts[1]).trimmingSpaces()) : .notBearer
        } else if let token = query.first(where: { $0.0 == "ckWebAuthToken" })?.1 {
            self = .token(token)
        } else if let token = query.first(where: { $0.0 == "ckAPIToken" })?.1 {
            self = .apiToken(token)
        } else {
            self = .none
        }
    }

    /// Whether a text has the shape of an API token: 64 lowercase hex characters, as Apple's.
    static func isAPITokenShaped(_ token: String) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether a token is of a shape any stored token could have (not empty, not oversized).
    static func isPlausible(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maxTokenBytes
    }
}
