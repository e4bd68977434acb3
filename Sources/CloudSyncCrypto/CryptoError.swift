/// Why a cryptographic operation failed.
public enum CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ciphertext, its tag or its associated data do not match: tampered, moved to another
    /// record or field, or the wrong key.
    case authenticationFailed
    /// A sealed box is too short or has an unknown version.
    case malformed(String)
    /// A key's bytes or its PEM/DER text are not a valid key of the kind expected (why).
    case invalidKey(String)
    /// OpenSSL refused the operation.
    case library(String)
    /// The shared library (its file name) could not be loaded or lacks a function (why).
    case unavailable(String, String)

    public var description: String {
        switch self {
        case .authenticationFailed: "authentication failed (tampered data, data moved elsewhere, or the wrong key)"
        case .malformed(let why): "malformed ciphertext: \(why)"
        case .invalidKey(let why): "invalid key: \(why)"
        case .library(let why): "crypto library error: \(why)"
        case .unavailable(let library, let why): "cannot load \(library), which encryption needs (\(why)); install OpenSSL 3 (Debian: libssl3)"
        }
    }
}
