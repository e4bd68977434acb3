#if canImport(Glibc)
import Glibc
#endif

/// Memory figures of this process from /proc/self/status, in KiB.
enum ProcessStatus {
    static func selfKiB(_ name: String) -> Int {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(String(line.dropFirst(name.count + 1).filter(\.isNumber))) ?? 0
        }
        return 0
    }
}
