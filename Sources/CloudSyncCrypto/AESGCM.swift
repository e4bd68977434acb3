import COpenSSL

/// AES-256-GCM authenticated encryption (NIST SP 800-38D) through libcrypto (loaded on first
/// use, see `LibCrypto`), with a 96-bit nonce and a 128-bit tag.
public enum AESGCM {
    public static let keySize = 32
    public static let nonceSize = 12
    public static let tagSize = 16

    /// Encrypts `plaintext`; returns ciphertext followed by the tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        guard key.count == keySize, nonce.count == nonceSize else { throw .library("AES-256-GCM needs a 32-byte key and 12-byte nonce") }
        let crypto = try LibCrypto.shared()
        guard let ctx = crypto.cipherContextNew() else { throw .library("EVP_CIPHER_CTX_new") }
        defer { crypto.cipherContextFree(ctx) }
        var out = [UInt8](repeating: 0, count: plaintext.count + tagSize)
        var length: Int32 = 0
        var ok = crypto.encryptInit(ctx, crypto.aes256GCM(), nil, nil, nil)
        ok &= crypto.cipherControl(ctx, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceSize), nil)
        ok &= crypto.encryptInit(ctx, nil, nil, key, nonce)
        if !aad.isEmpty { ok &= crypto.encryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) }
        var written: Int32 = 0
        if !plaintext.isEmpty {
            ok &= out.withUnsafeMutableBufferPointer { crypto.encryptUpdate(ctx, $0.baseAddress, &written, plaintext, Int32(plaintext.count)) }
        }
        var final: Int32 = 0
        ok &= out.withUnsafeMutableBufferPointer { crypto.encryptFinal(ctx, $0.baseAddress! + Int(written), &final) }
        ok &= out.withUnsafeMutableBufferPointer {
            crypto.cipherControl(ctx, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), $0.baseAddress! + plaintext.count)
        }
        guard ok == 1 else { throw .library("AES-256-GCM encryption failed") }
        return out
    }

    /// Decrypts ciphertext-and-tag; throws `authenticationFailed` when anything was altered.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        guard key.count == keySize, nonce.count == nonceSize else { throw .library("AES-256-GCM needs a 32-byte key and 12-byte nonce") }
        guard sealed.count >= tagSize else { throw .malformed("shorter than the tag") }
        let crypto = try LibCrypto.shared()
        guard let ctx = crypto.cipherContextNew() else { throw .library("EVP_CIPHER_CTX_new") }
        defer { crypto.cipherContextFree(ctx) }
        let body = Array(sealed[0..<(sealed.count - tagSize)])
        var tag = Array(sealed[(sealed.count - tagSize)...])
        var out = [UInt8](repeating: 0, count: max(body.count, 1))
        var length: Int32 = 0
        var ok = crypto.decryptInit(ctx, crypto.aes256GCM(), nil, nil, nil)
        ok &= crypto.cipherControl(ctx, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceSize), nil)
        ok &= crypto.decryptInit(ctx, nil, nil, key, nonce)
        if !aad.isEmpty { ok &= crypto.decryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) }
        var written: Int32 = 0
        if !body.isEmpty {
            ok &= out.withUnsafeMutableBufferPointer { crypto.decryptUpdate(ctx, $0.baseAddress, &written, body, Int32(body.count)) }
        }
        ok &= tag.withUnsafeMutableBufferPointer { crypto.cipherControl(ctx, EVP_CTRL_GCM_SET_TAG, Int32(tagSize), $0.baseAddress) }
        guard ok == 1 else { throw .library("AES-256-GCM decryption setup failed") }
        var final: Int32 = 0
        let verified = out.withUnsafeMutableBufferPointer { crypto.decryptFinal(ctx, $0.baseAddress! + Int(written), &final) }
        guard verified == 1 else { throw .authenticationFailed }
        return Array(out[0..<body.count])
    }
}
