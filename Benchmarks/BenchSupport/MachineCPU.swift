#if canImport(Glibc)
import Glibc
#endif

/// The whole machine's CPU time from `/proc/stat`, and this process's own (getrusage): taken
/// before and after a load, they tell how busy the machine was and which part the benchmark's
/// own clients took, so that a database server's share can be told apart from the process
/// under test.
public struct MachineCPU: Sendable {
    /// Busy and idle (idle + iowait) ticks of all cores since boot.
    public var busyTicks: Int
    public var idleTicks: Int
    /// This process's user + system CPU seconds.
    public var ownSeconds: Double

    /// Now. Zeros when `/proc/stat` cannot be read.
    public static func now() -> MachineCPU {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let own = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
        var busy = 0, idle = 0
        let fd = open("/proc/stat", O_RDONLY)
        if fd >= 0 {
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = read(fd, &buffer, buffer.count)
            if count > 0, let line = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").first,
               line.hasPrefix("cpu ") {
                // user nice system idle iowait irq softirq steal (guest time is inside user).
                let fields = line.split(separator: " ").dropFirst().prefix(8).compactMap { Int($0) }
                for (index, value) in fields.enumerated() {
                    if index == 3 || index == 4 { idle += value } else { busy += value }
                }
            }
        }
        return MachineCPU(busyTicks: busy, idleTicks: idle, ownSeconds: own)
    }

    /// The machine's busy CPU seconds (all cores) from `earlier` to this.
    public func busySeconds(since earlier: MachineCPU) -> Double {
        Double(busyTicks - earlier.busyTicks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The share of all cores' time that was idle from `earlier` to this (0...1).
    public func idleShare(since earlier: MachineCPU) -> Double {
        let busy = busyTicks - earlier.busyTicks, idle = idleTicks - earlier.idleTicks
        return busy + idle > 0 ? Double(idle) / Double(busy + idle) : 0
    }
}
