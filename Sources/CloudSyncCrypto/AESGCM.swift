/// AES-256-GCM authenticated encryption (NIST SP 800-38D) through libcrypto, with a 96-bit
/// nonce and a 128-bit tag (the shared `AEAD` helper with the AES-256-GCM cipher).
public enum AESGCM {
    public static let keySize = AEAD.keySize
    public static let nonceSize = AEAD.nonceSize
    public static let tagSize = AEAD.tagSize

    /// Encrypts `plaintext`; returns ciphertext followed by the tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        try AEAD.seal(.aes256GCM, plaintext, key: key, nonce: nonce, aad: aad)
    }

    /// Decrypts ciphertext-and-tag; throws `authenticationFailed` when anything was altered
    /// (and returns no part of the plaintext).
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        try AEAD.open(.aes256GCM, sealed, key: key, nonce: nonce, aad: aad)
    }
}
