#if canImport(Glibc)
import Glibc
#endif

/// One progress line on stderr.
func log(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// This executable's file name.
func selfName() -> String {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBufferPointer { pointer in
        pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
    }
    let path = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : "backend-bench"
    return String(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...])
}

/// The folder of this executable (where `cloudsync` is built next to it).
func selfFolder() -> String {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBufferPointer { pointer in
        pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
    }
    let path = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : "./x"
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}
