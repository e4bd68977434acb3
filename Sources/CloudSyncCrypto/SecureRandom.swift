#if canImport(Glibc)
import Glibc
#endif

/// Cryptographically secure random bytes from the kernel: `getentropy(3)`, glibc's wrapper of
/// `getrandom(2)` (Swift's Glibc module does not declare `getrandom` itself), which blocks only
/// until the kernel's pool is first seeded. No library to load, unlike OpenSSL's `RAND_bytes`.
public enum SecureRandom {
    /// The most `getentropy` returns per call.
    static let chunk = 256

    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let length = min(chunk, buffer.count - offset)
                // getentropy fails only for lengths above 256 or a kernel without getrandom (before 3.17).
                let ok = getentropy(buffer.baseAddress! + offset, length)
                precondition(ok == 0, "getentropy failed: \(String(cString: strerror(errno)))")
                offset += length
            }
        }
        return out
    }
}
