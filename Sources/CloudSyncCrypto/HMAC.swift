/// The hash functions HMAC is computed with here.
public enum HashFunction: String, Sendable, Hashable, CaseIterable {
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"

    /// The digest length in bytes (20, 32 or 64).
    public var digestSize: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha512: 64
        }
    }

    /// The block length in bytes (64, 64 or 128).
    public var blockSize: Int { self == .sha512 ? 128 : 64 }

    /// The digest of `bytes`, computed in Swift (see `SoftwareDigest`).
    public func digest(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .sha1: SoftwareDigest.sha1(bytes)
        case .sha256: SoftwareDigest.sha256(bytes)
        case .sha512: SoftwareDigest.sha512(bytes)
        }
    }
}

/// HMAC (RFC 2104) over SHA-1, SHA-256 or SHA-512.
///
/// `authenticate` runs in Swift over `SoftwareDigest`: a one-shot command such as
/// `cloudsync otp code` would otherwise spend about 1-2 ms initialising OpenSSL 3's providers
/// for one 8-byte MAC, more than the whole process should take. `libcrypto` computes the same
/// MAC through OpenSSL's EVP_MAC; the tests check that the two agree.
public enum HMAC {
    /// The MAC of `message` under `key` (keys longer than a block are hashed first).
    public static func authenticate(_ message: [UInt8], key: [UInt8], hash: HashFunction) -> [UInt8] {
        var block = key.count > hash.blockSize ? hash.digest(key) : key
        block += [UInt8](repeating: 0, count: hash.blockSize - block.count)
        let inner = hash.digest(block.map { $0 ^ 0x36 } + message)
        return hash.digest(block.map { $0 ^ 0x5c } + inner)
    }

    /// The same MAC computed by OpenSSL (`EVP_Q_mac`, libcrypto loaded on first use).
    public static func libcrypto(_ message: [UInt8], key: [UInt8], hash: HashFunction) throws(CryptoError) -> [UInt8] {
        let crypto = try LibCrypto.shared()
        var out = [UInt8](repeating: 0, count: 64)
        var length = 0
        // libcrypto wants non-null pointers even for empty input.
        let keyBytes = key.isEmpty ? [0] : key, messageBytes = message.isEmpty ? [0] : message
        let result = keyBytes.withUnsafeBufferPointer { k in
            messageBytes.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    crypto.quickMAC(nil, "HMAC", nil, hash.rawValue, nil, k.baseAddress, key.count, m.baseAddress, message.count,
                              o.baseAddress, o.count, &length)
                }
            }
        }
        guard result != nil, length == hash.digestSize else { throw .library("HMAC-\(hash.rawValue) failed") }
        return Array(out[0..<length])
    }
}
