import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto
import CloudSyncWebProtocol

/// Who sent a request, from its credentials: the caller (account and role), or nil when it has
/// none or a bad one (the handler then answers 401 AUTHENTICATION_FAILED). A store that cannot be
/// read is no verdict on the credential: it throws, and the request is answered 503
/// TRY_AGAIN_LATER with `retryAfter`, so clients retry instead of giving up on a good token.
public protocol WebServicesAuthenticator: Sendable {
    /// The caller the request's credentials authenticate, or nil; throws `serviceUnavailable`
    /// (with `retryAfter`) when the credentials cannot be read.
    func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                body: [UInt8]) throws(CloudError) -> Caller?
    /// Why the credential is refused from the head alone, before the body is read; nil lets the
    /// request through to `caller` (see CredentialPrecheck.swift; the default refuses nothing).
    func precheck(path: String, query: [(String, String)], headers: [(String, String)]) -> CredentialRefusal?
    /// `precheck`, with the credential it found in force (the default notes none).
    func admission(path: String, query: [(String, String)], headers: [(String, String)]) -> CredentialAdmission
    /// `caller`, given what `admission` found from the head: a credential found in force there
    /// is not looked up again (the default ignores it).
    func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                body: [UInt8], prechecked: PrecheckedCredential?) throws(CloudError) -> Caller?
    /// Looks up in the store a credential `admission` took from a cache (`confirmedLater`) and
    /// no write confirmed: its refusal when it is no longer in force, nil when it is (or was
    /// confirmed already); throws `serviceUnavailable` when the store cannot be read.
    func confirm(_ credential: PrecheckedCredential) throws(CloudError) -> CredentialRefusal?
}

extension WebServicesAuthenticator {
    /// `precheck`'s verdict, noting no credential.
    public func admission(path: String, query: [(String, String)], headers: [(String, String)]) -> CredentialAdmission {
        precheck(path: path, query: query, headers: headers).map(CredentialAdmission.refused) ?? .admitted(nil)
    }

    /// Nothing to confirm: the default `admission` caches nothing.
    public func confirm(_ credential: PrecheckedCredential) throws(CloudError) -> CredentialRefusal? {
        nil
    }

    /// `caller` without the pre-check's credential.
    public func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                       body: [UInt8], prechecked: PrecheckedCredential?) throws(CloudError) -> Caller? {
        try caller(method: method, path: path, query: query, headers: headers, body: body)
    }
}

/// Credentials kept in a cloud's storage (`StorageBackedCloud+Credentials`): a bearer token
/// (`Authorization: Bearer TOKEN` or `?ckWebAuthToken=TOKEN`), or a request signed with a
/// registered server-to-server key (`ServerKeySignature`). A signed request is accepted once:
/// its signature is remembered in the store for its 5-minute window (every node over the store
/// shares the memory), so a captured request cannot be replayed, with or without a query string
/// added (Apple's scheme signs neither the method nor the query).
public struct StoredCredentialAuthenticator: WebServicesAuthenticator {
    /// The `retryAfter` (seconds) of a credential store that cannot be read.
    public static let storeRetryAfter = 1.0

    let service: StorageBackedCloud
    let clock: @Sendable () -> Int64

    /// Checks credentials against `service`'s storage; `clock` (ms since 1970) judges a signed
    /// request's date.
    public init(service: StorageBackedCloud, clock: @escaping @Sendable () -> Int64 = systemClock) {
        self.service = service
        self.clock = clock
    }

    public func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                       body: [UInt8]) throws(CloudError) -> Caller? {
        try caller(method: method, path: path, query: query, headers: headers, body: body, prechecked: nil)
    }

    public func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                       body: [UInt8], prechecked: PrecheckedCredential?) throws(CloudError) -> Caller? {
        switch PresentedCredential(headers: headers, query: query) {
        case .serverKey(let keyID, let date?, let signature?):
            guard let key = try readingStore({ () throws(CloudError) in try service.serverKey(id: keyID) }) else { return nil }
            let now = clock()
            guard ServerKeySignature.verify(publicKeyPEM: key.secret, date: date, body: body, path: path,
                                            signature: signature, now: now) else { return nil }
            let used = Hex.encode(SHA256.digest(Array("\(keyID)\n\(date)\n\(signature)".utf8)))
            let firstUse = try readingStore { () throws(CloudError) in
                try service.acceptSignatureOnce(used, expires: now + 2 * ServerKeySignature.maxSkewMilliseconds)
            }
            guard firstUse else { return nil }
            try? service.noteUsed(key)
            return Caller(account: key.account, standing: .credential(isAdmin: key.isAdmin))
        case .token(let token):
            guard PresentedCredential.isPlausible(token) else { return nil }
            var row = prechecked?.row(for: .token, token)
            if row == nil { row = try readingStore { () throws(CloudError) in try service.authenticate(token: token) } }
            return row.map { Caller(account: $0.account, standing: .credential(isAdmin: $0.isAdmin)) }
        case .apiToken(let token):
            guard PresentedCredential.isAPITokenShaped(token) else { return nil }
            var row = prechecked?.row(for: .apiToken, token)
            if row == nil { row = try readingStore { () throws(CloudError) in try service.authenticate(apiToken: token) } }
            return row.flatMap { $0.container.map(Caller.anonymous(container:)) }
        case .serverKey, .notBearer, .none:
            return nil
        }
    }

    public func confirm(_ credential: PrecheckedCredential) throws(CloudError) -> CredentialRefusal? {
        guard credential.confirmedLater, credential.kind == .token else { return nil }
        let check = try readingStore { () throws(CloudError) in try service.check(token: credential.token) }
        return Self.admission(check, unknown: .unknownToken, revoked: .revokedToken).refusal
    }

    /// `body`'s result; a store that fails becomes `serviceUnavailable` with `retryAfter`.
    func readingStore<T>(_ body: () throws(CloudError) -> T) throws(CloudError) -> T {
        do {
            return try body()
        } catch {
            throw CloudError(.serviceUnavailable, "the credentials cannot be checked now (\(error.reason)); try again later",
                             retryAfter: Self.storeRetryAfter)
        }
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
