/// ChaCha20-Poly1305 authenticated encryption (RFC 8439) through libcrypto, with a 96-bit nonce
/// and a 128-bit tag: the AEAD of HPKE's aead_id 0x0003 (the shared `AEAD` helper with the
/// ChaCha20-Poly1305 cipher).
public enum ChaChaPoly {
    public static let keySize = AEAD.keySize
    public static let nonceSize = AEAD.nonceSize
    public static let tagSize = AEAD.tagSize

    /// Encrypts `plaintext`; returns ciphertext followed by the tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        try AEAD.seal(.chacha20Poly1305, plaintext, key: key, nonce: nonce, aad: aad)
    }

    /// Decrypts ciphertext-and-tag; throws `authenticationFailed` when anything was altered
    /// (and returns no part of the plaintext).
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        try AEAD.open(.chacha20Poly1305, sealed, key: key, nonce: nonce, aad: aad)
    }
}
