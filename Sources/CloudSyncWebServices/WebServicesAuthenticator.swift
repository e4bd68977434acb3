import CloudSyncCloud
import CloudSyncCore

/// Who sent a request, from its credentials: the caller (account and role), or nil when it has
/// none or a bad one (the handler then answers 401 AUTHENTICATION_FAILED).
public protocol WebServicesAuthenticator: Sendable {
    /// The caller the request's credentials authenticate, or nil.
    func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)], body: [UInt8]) -> Caller?
}

/// Credentials kept in a cloud's storage (`ServiceCloud+Credentials`): a bearer token
/// (`Authorization: Bearer TOKEN` or `?ckWebAuthToken=TOKEN`), or a request signed with a
/// registered server-to-server key (`ServerKeySignature`).
public struct StoredCredentialAuthenticator: WebServicesAuthenticator {
    let service: ServiceCloud
    let clock: @Sendable () -> Int64

    /// Checks credentials against `service`'s storage; `clock` (ms since 1970) judges a signed
    /// request's date.
    public init(service: ServiceCloud, clock: @escaping @Sendable () -> Int64 = systemClock) {
        self.service = service
        self.clock = clock
    }

    public func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                       body: [UInt8]) -> Caller? {
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        if let keyID = header(ServerKeySignature.keyIDHeader) {
            guard let date = header(ServerKeySignature.dateHeader), let signature = header(ServerKeySignature.signatureHeader),
                  let key = try? service.serverKey(id: keyID) else { return nil }
            guard ServerKeySignature.verify(publicKeyPEM: key.secret, date: date, body: body, path: path,
                                            signature: signature, now: clock()) else { return nil }
            try? service.noteUsed(key)
            return Caller(account: key.account, standing: .credential(isAdmin: key.isAdmin))
        }
        var token: String?
        if let authorization = header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            token = String(parts[1]).trimmingSpaces()
        } else {
            token = query.first { $0.0 == "ckWebAuthToken" }?.1
        }
        guard let token, !token.isEmpty, token.utf8.count <= 256 else { return nil }
        return (try? service.authenticate(token: token))?.map { Caller(account: $0.account, standing: .credential(isAdmin: $0.isAdmin)) }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }
}
