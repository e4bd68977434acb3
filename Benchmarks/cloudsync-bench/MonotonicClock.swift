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

    /// CPU time (user + system) this process has used so far, in seconds: next to a wall time,
    /// it shows how much of the wall time other work on the machine took.
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Spawn.seconds(usage.ru_utime) + Spawn.seconds(usage.ru_stime)
    }

    /// Runs `body` and returns its result with the elapsed seconds.
    static func measure<T>(_ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        let start = now()
        let value = try body()
        return (value, now() - start)
    }
}
