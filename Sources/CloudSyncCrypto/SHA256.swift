/// SHA-256 (FIPS 180-4): `SoftwareDigest` for short inputs, libcrypto (loaded on first use, see
/// `LibCrypto`) for long ones, where its SHA extensions are worth loading the library for.
public enum SHA256 {
    /// Inputs at least this long go through libcrypto when it can be loaded.
    public static let libcryptoThreshold = 1 << 16

    /// The 32-byte digest of `bytes` (the same whichever way it is computed).
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.count >= libcryptoThreshold, let out = try? libcrypto(bytes) { return out }
        return SoftwareDigest.sha256(bytes)
    }

    /// The digest computed by OpenSSL (`EVP_Digest`).
    public static func libcrypto(_ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        let crypto = try LibCrypto.shared()
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            crypto.digest(input.baseAddress, input.count, &out, &length, crypto.sha256(), nil)
        }
        guard ok == 1, length == 32 else { throw .library("SHA-256 failed") }
        return out
    }

    /// The digest as 64 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(digest(bytes))
    }
}

/// Lowercase hexadecimal coding.
public enum Hex {
    static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
