/// Memory figures of this process from /proc/self/status (Linux), in KiB.
enum ProcessMemory {
    /// Current resident set size (`VmRSS`).
    static var residentKiB: Int { field("VmRSS") }
    /// Peak resident set size so far (`VmHWM`, the high-water mark).
    static var peakKiB: Int { field("VmHWM") }

    static func field(_ name: String) -> Int {
        guard let bytes = try? FileIO.read("/proc/self/status") else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(String(digits)) ?? 0
        }
        return 0
    }
}
