import CloudSyncCore
import CloudSyncCrypto

/// The credentials `cloudsync serve` accepts, kept in the cloud's own storage so that every
/// server node over one store agrees: bearer tokens (only their SHA-256 is stored) and
/// server-to-server public keys.
extension StorageBackedCloud {
    /// A new token for `account`: the row stored (its ID and the token's hash) and the token
    /// itself, which is shown once and never stored. `admin` gives it the administrator role.
    public func createToken(account: String, admin: Bool = false) throws(CloudError) -> (credential: CredentialRow, token: String) {
        let token = "cst_" + Hex.encode(SecureRandom.bytes(32))
        let row = CredentialRow(id: "tok_" + Hex.encode(SecureRandom.bytes(8)), account: account, kind: .token,
                                secret: Self.tokenHash(token), created: clock(), isAdmin: admin)
        try write { tx in try tx.insertCredential(row) }
        return (row, token)
    }

    /// A new API token for `container`: 64 lowercase hex characters, as Apple's are. It reads the
    /// public database as no user (what `_world` may read); shown once, only its SHA-256 stored.
    public func createAPIToken(container: String) throws(CloudError) -> (credential: CredentialRow, token: String) {
        try NameRules.validateContainerIdentifier(container)
        let token = Hex.encode(SecureRandom.bytes(32))
        let row = CredentialRow(id: "api_" + Hex.encode(SecureRandom.bytes(8)), account: "", kind: .apiToken,
                                secret: Self.tokenHash(token), created: clock(), container: container)
        try write { tx in try tx.insertCredential(row) }
        return (row, token)
    }

    /// The API token credential of `token`, or nil (unknown or revoked); notes its use (at most
    /// once a second).
    public func authenticate(apiToken token: String) throws(CloudError) -> CredentialRow? {
        try check(apiToken: token).inForce
    }

    /// What `token` is as an API token: in force (its use noted), revoked, or unknown.
    public func check(apiToken token: String) throws(CloudError) -> CredentialCheck {
        try check(try readOne({ tx in try tx.credential(secret: Self.tokenHash(token), kind: .apiToken) }))
    }

    /// Registers a server-to-server public key (PEM) for `account`; its ID is the SHA-256 (hex)
    /// of the PEM's key bytes. The same key twice is `alreadyExists`. `admin` gives it the
    /// administrator role.
    public func addServerKey(account: String, publicKeyPEM: String, keyID: String, admin: Bool = false) throws(CloudError) -> CredentialRow {
        let row = CredentialRow(id: keyID, account: account, kind: .serverKey, secret: publicKeyPEM, created: clock(), isAdmin: admin)
        return try write { tx in
            if let existing = try tx.credential(id: keyID) {
                throw CloudError(.constraintViolation, existing.revoked == nil
                    ? "key \(keyID) is registered already" : "key \(keyID) was revoked; a revoked key cannot be registered again")
            }
            try tx.insertCredential(row)
            return row
        }
    }

    /// Every token and key in force (hashes and public keys, never a token).
    public func credentials() throws(CloudError) -> [CredentialRow] {
        try read { tx in try tx.allCredentials() }.filter { $0.revoked == nil }
    }

    /// Revokes a token or key: it stops authenticating at once, and a request presenting it is
    /// told it was revoked. `unknownItem` when there is none with this ID, or it was revoked already.
    public func revokeCredential(id: String) throws(CloudError) {
        let now = clock()
        let (revoked, existing) = try write { tx in
            let revoked = try tx.revokeCredential(id: id, at: now)
            return (revoked, revoked ? nil : try tx.credential(id: id))
        }
        if revoked {
            forgetCachedCredential(id: id)
            return
        }
        if existing != nil { throw CloudError(.unknownItem, "token or key \(NameRules.quoted(id)) was revoked already") }
        throw CloudError(.unknownItem, "no token or key with ID \(NameRules.quoted(id))")
    }

    /// The credential a bearer token is, or nil (unknown or revoked); notes its use (at most once
    /// a second).
    public func authenticate(token: String) throws(CloudError) -> CredentialRow? {
        try check(token: token).inForce
    }

    /// What a bearer token is: in force (its use noted), revoked, or unknown.
    public func check(token: String) throws(CloudError) -> CredentialCheck {
        let hash = Self.tokenHash(token)
        let check = try check(try readOne({ tx in try tx.credential(secret: hash, kind: .token) }))
        if confirmsCredentialsInWrites { rememberTokenCheck(check, hash: hash) }
        return check
    }

    /// The server-to-server key in force with this key ID, or nil.
    public func serverKey(id: String) throws(CloudError) -> CredentialRow? {
        try check(serverKeyID: id).inForce
    }

    /// What a server-to-server key ID names: a key in force, a revoked key, or nothing.
    /// Its use is noted only once a request's signature is verified (`noteUsed`).
    public func check(serverKeyID id: String) throws(CloudError) -> CredentialCheck {
        guard let row = try readOne({ tx in try tx.credential(id: id) }), row.kind == .serverKey else { return .unknown }
        return row.revoked == nil ? .inForce(row) : .revoked
    }

    /// `row` judged: none is unknown, a revoked one revoked, one in force has its use noted.
    func check(_ row: CredentialRow?) throws(CloudError) -> CredentialCheck {
        guard let row else { return .unknown }
        guard row.revoked == nil else { return .revoked }
        try noteUsed(row)
        return .inForce(row)
    }

    /// Stores when a credential was last used, when the stored time is a second old or more
    /// (`token list` shows each use; a token sending many requests a second writes once).
    public func noteUsed(_ row: CredentialRow) throws(CloudError) {
        let now = clock()
        if let last = row.lastUsed, now - last < 1_000 { return }
        try write { tx in try tx.setCredentialLastUsed(id: row.id, at: now) }
    }

    /// Remembers a signed request's signature (`hash`, e.g. a SHA-256 of key, date and
    /// signature) until `expires`; false when it was seen already: a replay.
    public func acceptSignatureOnce(_ hash: String, expires: Int64) throws(CloudError) -> Bool {
        let now = clock()
        return try write { tx in try tx.rememberSignature(hash, expires: expires, now: now) }
    }

    /// The stored form of a token: its SHA-256 in lowercase hex.
    public static func tokenHash(_ token: String) -> String {
        Hex.encode(SHA256.digest(Array(token.utf8)))
    }
}
