#if canImport(Glibc)
import Glibc
#endif

/// The few file operations the bench needs, on plain POSIX calls.
enum FileIO {
    /// A failed file operation.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The whole content of `path`.
    static func read(_ path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(description: "cannot open \(path): \(errorText())") }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read \(path): \(errorText())")
            }
            if n == 0 { return out }
            out.append(contentsOf: buffer[0..<n])
        }
    }

    /// Writes `text` to `path`, replacing it.
    static func write(_ text: String, to path: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw Failure(description: "cannot create \(path): \(errorText())") }
        defer { close(fd) }
        var text = text
        let ok = text.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        guard ok else { throw Failure(description: "cannot write \(path): \(errorText())") }
    }

    /// Size of `path` in bytes, or 0.
    static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Removes `path` if it exists.
    static func remove(_ path: String) {
        unlink(path)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
