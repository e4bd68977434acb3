/// Why an HPKE (RFC 9180) operation failed. None of them carries any plaintext.
public enum HPKEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Open failed: the ciphertext, its associated data, the info, the encapsulated key or the
    /// sender's key do not match what was sealed (RFC 9180's OpenError).
    case openFailed
    /// The encapsulated key cannot be used: wrong length, or a low-order X25519 point
    /// (RFC 9180's DeserializeError and DecapError).
    case invalidEncapsulatedKey(String)
    /// Encapsulating to this public key (or with this sender key) fails: a low-order point
    /// (RFC 9180's EncapError).
    case encapsulationFailed(String)
    /// The pre-shared key and its id are inconsistent with each other or with the mode.
    case invalidPSK(String)
    /// The context has sealed or opened as many messages as its nonces allow
    /// (RFC 9180's MessageLimitReachedError).
    case messageLimitReached
    /// The underlying primitive failed (libcrypto missing, an export too long, ...).
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .openFailed:
            "could not be authenticated (tampered, not addressed to this key, or not from this sender)"
        case .invalidEncapsulatedKey(let why): "could not be authenticated: invalid encapsulated key (\(why))"
        case .encapsulationFailed(let why): "cannot encrypt to this key: \(why)"
        case .invalidPSK(let why): "invalid pre-shared key input: \(why)"
        case .messageLimitReached: "this HPKE context has used all its nonces; set up a new one"
        case .crypto(let error): error.description
        }
    }
}
