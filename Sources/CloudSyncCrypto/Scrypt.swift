/// The scrypt memory-hard key derivation function (RFC 7914) through libcrypto (loaded on first use, see `LibCrypto`).
public struct Scrypt: Sendable, Hashable {
    /// CPU/memory cost (a power of two).
    public var n: UInt64
    public var r: UInt64
    public var p: UInt64

    /// The parameters used for sync passphrases: N=2^15, r=8, p=1 (32 MiB, about 0.1 s).
    public static let passphraseDefault = Scrypt(n: 1 << 15, r: 8, p: 1)

    public init(n: UInt64, r: UInt64, p: UInt64) {
        self.n = n
        self.r = r
        self.p = p
    }

    /// Derives `length` bytes from a password and salt.
    public func derive(password: [UInt8], salt: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        guard n > 1, n & (n - 1) == 0, r >= 1, p >= 1 else { throw .library("scrypt N must be a power of two above 1") }
        let crypto = try LibCrypto.shared()
        var out = [UInt8](repeating: 0, count: length)
        let maxMemory = UInt64(128) * r * n * 2 + UInt64(128) * r * p + (1 << 20)
        let ok = password.withUnsafeBufferPointer { pw in
            salt.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    crypto.pbeScrypt(pw.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, pw.count,
                                   s.baseAddress, s.count, n, r, p, maxMemory, o.baseAddress, length)
                }
            }
        }
        guard ok == 1 else { throw .library("scrypt failed (N=\(n), r=\(r), p=\(p))") }
        return out
    }
}
