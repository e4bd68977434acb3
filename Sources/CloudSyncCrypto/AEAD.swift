import COpenSSL

/// The authenticated encryption of libcrypto (loaded on first use, see `LibCrypto`) with a
/// 256-bit key, a 96-bit nonce and a 128-bit tag, parameterised by the cipher: AES-256-GCM
/// (`AESGCM`) and ChaCha20-Poly1305 (`ChaChaPoly`) differ only there. Sealed text is the
/// ciphertext followed by the tag.
enum AEAD {
    /// The ciphers this helper runs.
    enum Cipher: Sendable {
        case aes256GCM
        case chacha20Poly1305

        /// The name errors give.
        var name: String {
            switch self {
            case .aes256GCM: "AES-256-GCM"
            case .chacha20Poly1305: "ChaCha20-Poly1305"
            }
        }

        func evpCipher(_ crypto: LibCrypto) -> OpaquePointer? {
            switch self {
            case .aes256GCM: crypto.aes256GCM()
            case .chacha20Poly1305: crypto.chacha20Poly1305()
            }
        }
    }

    static let keySize = 32
    static let nonceSize = 12
    static let tagSize = 16

    /// Checks the key, nonce and lengths (libcrypto counts in `Int32`).
    static func check(_ cipher: Cipher, key: [UInt8], nonce: [UInt8], length: Int, aad: [UInt8]) throws(CryptoError) {
        guard key.count == keySize, nonce.count == nonceSize else {
            throw .library("\(cipher.name) needs a 32-byte key and 12-byte nonce")
        }
        guard length <= Int(Int32.max) - tagSize, aad.count <= Int(Int32.max) else { throw .library("\(cipher.name) input too long") }
    }

    /// Encrypts `plaintext`; returns ciphertext followed by the tag.
    static func seal(_ cipher: Cipher, _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(CryptoError) -> [UInt8] {
        try check(cipher, key: key, nonce: nonce, length: plaintext.count, aad: aad)
        let crypto = try LibCrypto.shared()
        guard let ctx = crypto.cipherContextNew() else { throw .library("EVP_CIPHER_CTX_new") }
        defer { crypto.cipherContextFree(ctx) }
        var out = [UInt8](repeating: 0, count: plaintext.count + tagSize)
        var length: Int32 = 0
        var ok = crypto.encryptInit(ctx, cipher.evpCipher(crypto), nil, nil, nil)
        ok &= crypto.cipherControl(ctx, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceSize), nil)
        ok &= crypto.encryptInit(ctx, nil, nil, key, nonce)
        if !aad.isEmpty { ok &= crypto.encryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) }
        var written: Int32 = 0
        if !plaintext.isEmpty {
            ok &= out.withUnsafeMutableBufferPointer { crypto.encryptUpdate(ctx, $0.baseAddress, &written, plaintext, Int32(plaintext.count)) }
        }
        var final: Int32 = 0
        ok &= out.withUnsafeMutableBufferPointer { crypto.encryptFinal(ctx, $0.baseAddress! + Int(written), &final) }
        ok &= out.withUnsafeMutableBufferPointer {
            crypto.cipherControl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(tagSize), $0.baseAddress! + plaintext.count)
        }
        guard ok == 1 else { throw .library("\(cipher.name) encryption failed") }
        return out
    }

    /// Decrypts ciphertext-and-tag; throws `authenticationFailed` when anything was altered
    /// (and returns no part of the plaintext).
    static func open(_ cipher: Cipher, _ sealed: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard key.count == keySize, nonce.count == nonceSize else {
            throw .library("\(cipher.name) needs a 32-byte key and 12-byte nonce")
        }
        guard sealed.count >= tagSize else { throw .malformed("shorter than the tag") }
        try check(cipher, key: key, nonce: nonce, length: sealed.count - tagSize, aad: aad)
        let crypto = try LibCrypto.shared()
        guard let ctx = crypto.cipherContextNew() else { throw .library("EVP_CIPHER_CTX_new") }
        defer { crypto.cipherContextFree(ctx) }
        let body = Array(sealed[0..<(sealed.count - tagSize)])
        var tag = Array(sealed[(sealed.count - tagSize)...])
        var out = [UInt8](repeating: 0, count: max(body.count, 1))
        var length: Int32 = 0
        var ok = crypto.decryptInit(ctx, cipher.evpCipher(crypto), nil, nil, nil)
        ok &= crypto.cipherControl(ctx, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceSize), nil)
        ok &= crypto.decryptInit(ctx, nil, nil, key, nonce)
        if !aad.isEmpty { ok &= crypto.decryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) }
        var written: Int32 = 0
        if !body.isEmpty {
            ok &= out.withUnsafeMutableBufferPointer { crypto.decryptUpdate(ctx, $0.baseAddress, &written, body, Int32(body.count)) }
        }
        ok &= tag.withUnsafeMutableBufferPointer { crypto.cipherControl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(tagSize), $0.baseAddress) }
        guard ok == 1 else { throw .library("\(cipher.name) decryption setup failed") }
        var final: Int32 = 0
        let verified = out.withUnsafeMutableBufferPointer { crypto.decryptFinal(ctx, $0.baseAddress! + Int(written), &final) }
        guard verified == 1 else {
            // Wipe what was decrypted before the tag was checked: none of it may escape.
            for index in out.indices { out[index] = 0 }
            throw .authenticationFailed
        }
        return Array(out[0..<body.count])
    }
}
