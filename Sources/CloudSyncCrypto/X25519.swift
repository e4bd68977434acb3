import COpenSSL

/// An X25519 public key (RFC 7748): its raw 32-byte encoding, which is also HPKE's
/// SerializePublicKey for DHKEM(X25519, HKDF-SHA256).
public struct X25519PublicKey: Sendable, Hashable {
    /// The key's length in bytes (HPKE's Npk and Nenc).
    public static let size = 32

    /// The 32 raw bytes.
    public let rawRepresentation: [UInt8]

    /// A public key from its 32 raw bytes; any other length is refused.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == X25519PublicKey.size else {
            throw .invalidKey("an X25519 public key is 32 bytes, not \(rawRepresentation.count)")
        }
        self.rawRepresentation = rawRepresentation
    }
}

/// An X25519 private key, kept as its raw 32 bytes; libcrypto does the arithmetic
/// (`EVP_PKEY_X25519`, loaded on first use, see `LibCrypto`).
public struct X25519PrivateKey: Sendable, Hashable {
    /// The key's length in bytes (HPKE's Nsk).
    public static let size = 32

    /// The 32 raw bytes (HPKE's SerializePrivateKey; libcrypto clamps them when it uses them).
    public let rawRepresentation: [UInt8]
    /// The matching public key, computed once when the key is made.
    public let publicKey: X25519PublicKey

    /// A new random key (32 bytes from the kernel's generator).
    public static func generate() throws(CryptoError) -> X25519PrivateKey {
        try X25519PrivateKey(rawRepresentation: SecureRandom.bytes(size))
    }

    /// A private key from its 32 raw bytes; any other length is refused.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == X25519PrivateKey.size else {
            throw .invalidKey("an X25519 private key is 32 bytes, not \(rawRepresentation.count)")
        }
        let crypto = try LibCrypto.shared()
        let key = try X25519PrivateKey.pkey(rawRepresentation, crypto: crypto)
        defer { crypto.pkeyFree(key) }
        var out = [UInt8](repeating: 0, count: X25519PublicKey.size)
        var length = out.count
        guard crypto.pkeyGetRawPublic(key, &out, &length) == 1, length == X25519PublicKey.size else {
            throw .library("EVP_PKEY_get_raw_public_key failed")
        }
        self.rawRepresentation = rawRepresentation
        self.publicKey = try X25519PublicKey(rawRepresentation: out)
    }

    /// The X25519 Diffie-Hellman shared secret with `peer` (32 bytes). Refuses an all-zero
    /// result, which a low-order public key produces (RFC 9180 §7.1.4).
    public func sharedSecret(with peer: X25519PublicKey) throws(CryptoError) -> [UInt8] {
        let crypto = try LibCrypto.shared()
        let mine = try X25519PrivateKey.pkey(rawRepresentation, crypto: crypto)
        defer { crypto.pkeyFree(mine) }
        guard let theirs = peer.rawRepresentation.withUnsafeBufferPointer({
            crypto.pkeyNewRawPublic(EVP_PKEY_X25519, nil, $0.baseAddress, $0.count)
        }) else { throw .library("EVP_PKEY_new_raw_public_key failed") }
        defer { crypto.pkeyFree(theirs) }
        guard let ctx = crypto.pkeyContextNew(mine, nil) else { throw .library("EVP_PKEY_CTX_new failed") }
        defer { crypto.pkeyContextFree(ctx) }
        var out = [UInt8](repeating: 0, count: 32)
        var length = out.count
        guard crypto.pkeyDeriveInit(ctx) == 1, crypto.pkeyDeriveSetPeer(ctx, theirs) == 1 else {
            throw .library("X25519 key agreement setup failed")
        }
        // libcrypto itself fails the derivation when the result is all zero.
        guard crypto.pkeyDerive(ctx, &out, &length) == 1, length == 32, out.contains(where: { $0 != 0 }) else {
            throw .invalidKey("X25519 key agreement with this public key gives no secret (a low-order point)")
        }
        return out
    }

    /// An `EVP_PKEY` holding `raw`; the caller frees it.
    private static func pkey(_ raw: [UInt8], crypto: LibCrypto) throws(CryptoError) -> OpaquePointer {
        guard let key = raw.withUnsafeBufferPointer({ crypto.pkeyNewRawPrivate(EVP_PKEY_X25519, nil, $0.baseAddress, $0.count) }) else {
            throw .library("EVP_PKEY_new_raw_private_key failed")
        }
        return key
    }
}

extension X25519PrivateKey: CustomStringConvertible {
    /// Never the key itself: only its public half, so a stray print leaks nothing.
    public var description: String { "X25519PrivateKey(public: \(Hex.encode(publicKey.rawRepresentation)))" }
}
