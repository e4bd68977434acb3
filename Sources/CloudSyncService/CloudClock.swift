#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock time in milliseconds since the epoch. Injected into backends so tests can pin it.
public typealias CloudClock = @Sendable () -> Int64

/// The system clock.
public let systemClock: CloudClock = {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}

/// Random identifiers (userRecordName, store epochs) from the system generator.
public enum RandomID {
    /// `count` random bytes as lowercase hex.
    public static func hex(bytes count: Int) -> String {
        var rng = SystemRandomNumberGenerator()
        var out = ""
        for _ in 0..<count {
            let byte = UInt8.random(in: 0...255, using: &rng)
            out += String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }
        return out
    }
}
