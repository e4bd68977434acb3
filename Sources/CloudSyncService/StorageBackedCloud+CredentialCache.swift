import CloudSyncCore

/// Tokens this process found in force, by the SHA-256 of the token: a request to modify
/// records presenting one is admitted without a look-up of its own, and the write transaction
/// confirms the credential (`CredentialConfirmation`). Only storages that confirm inside their
/// writes at no extra round trip use it (`StorageCapabilities.confirmsCredentialsInWrites`).
extension StorageBackedCloud {
    /// The most tokens the cache keeps before it starts over.
    static let credentialCacheSize = 10_000

    /// Whether requests may be admitted on a cached token and confirmed by their write.
    public var confirmsCredentialsInWrites: Bool { storage.storageCapabilities.confirmsCredentialsInWrites }

    /// The token's credential as this process last found it in force, its use noted (at most
    /// once a second, as `check(token:)` does); nil when it is not cached (or the note fails),
    /// or when its account's user record name is not known here (`account(named:)` would then
    /// make the account, a write before the one that confirms the token).
    /// The caller must have the credential confirmed (`CredentialConfirmation`) before it answers.
    public func cachedTokenCredential(_ token: String) -> CredentialRow? {
        let hash = Self.tokenHash(token)
        guard var row = credentialCache.withLock({ $0[hash] }), row.revoked == nil,
              userRecordNames.withLock({ $0[row.account] }) != nil else { return nil }
        let now = clock()
        if row.lastUsed.map({ now - $0 >= 1_000 }) ?? true {
            do { try noteUsed(row) } catch { return nil }
            row.lastUsed = now
            credentialCache.withLock { cache in
                if cache[hash] != nil { cache[hash] = row }
            }
        }
        return row
    }

    /// Keeps (in force) or forgets (revoked, unknown) what a look-up of `hash` found.
    func rememberTokenCheck(_ check: CredentialCheck, hash: String) {
        credentialCache.withLock { cache in
            guard case .inForce(let row) = check else {
                cache[hash] = nil
                return
            }
            if cache.count >= Self.credentialCacheSize { cache.removeAll() }
            cache[hash] = row
        }
    }

    /// Forgets the credential `id` (revoked by this process).
    func forgetCachedCredential(id: String) {
        credentialCache.withLock { cache in
            for (hash, row) in cache where row.id == id { cache[hash] = nil }
        }
    }
}
