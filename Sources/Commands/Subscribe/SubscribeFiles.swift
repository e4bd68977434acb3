#if canImport(Glibc)
import Glibc
#endif

/// The few file-system facts the subscribe commands need.
enum SubscribeFiles {
    /// The path of the running executable (`/proc/self/exe`), or nil.
    static func selfExecutable() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// The folder part of a path.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
