#if canImport(Glibc)
import Glibc
#endif

/// Seconds on `CLOCK_MONOTONIC`: immune to wall-clock steps, so differences are durations.
enum MonotonicClock {
    /// The current reading, in seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs `body` and returns its result with the elapsed seconds.
    static func measure<T>(_ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        let start = now()
        let value = try body()
        return (value, now() - start)
    }
}
