import CloudSyncCore

extension StorageBackedCloud {
    /// The `meta` key of the secret that signs asset grants.
    public static let assetGrantSecretKey = "asset-grant-secret"

    /// The secret (32 random bytes as hex) that `cloudsync serve` signs asset upload and
    /// download URLs with (HMAC-SHA256). It is kept in the store, made by the first node that
    /// asks, so every node over one store accepts every other node's URLs.
    public func assetGrantSecret() throws(CloudError) -> String {
        let candidate = RandomID.hex(bytes: 32)
        return try write { tx in try tx.keptSecret(Self.assetGrantSecretKey, candidate: candidate) }
    }
}
