/// HKDF (RFC 5869) over HMAC-SHA256, as its two halves: HPKE (RFC 9180) calls Extract and
/// Expand separately, with labelled inputs (see `HPKE.labeledExtract` and `labeledExpand`).
/// The HMAC is `HMAC.authenticate` (SHA-256 in Swift; its tests check it against libcrypto's).
public enum HKDF {
    /// The output size of Extract (Nh), and the most blocks Expand may produce is 255 of it.
    public static let hashSize = 32

    /// `HKDF-Extract(salt, ikm)`: a 32-byte pseudorandom key. An empty salt means 32 zero bytes,
    /// which HMAC pads to the same key.
    public static func extract(salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
        HMAC.authenticate(ikm, key: salt, hash: .sha256)
    }

    /// `HKDF-Expand(prk, info, length)`: `length` bytes (at most 255 × 32 = 8160).
    public static func expand(prk: [UInt8], info: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        guard length >= 0, length <= 255 * hashSize else { throw .library("HKDF-Expand cannot produce \(length) bytes (at most 8160)") }
        var okm: [UInt8] = [], block: [UInt8] = []
        var counter: UInt8 = 1
        while okm.count < length {
            block = HMAC.authenticate(block + info + [counter], key: prk, hash: .sha256)
            okm += block
            counter &+= 1
        }
        return Array(okm[0..<length])
    }
}
