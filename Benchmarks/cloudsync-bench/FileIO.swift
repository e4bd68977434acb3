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
        var out: [UInt8] = []
        try forEachChunk(of: path) { chunk throws(Failure) in out.append(contentsOf: chunk) }
        return out
    }

    /// Calls `body` with successive pieces of `path` (at most 1 MiB each) until its end.
    static func forEachChunk(of path: String,
                             _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(description: "cannot open \(path): \(errorText())") }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1_048_576, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read \(path): \(errorText())")
            }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Writes all of `bytes` to the open file `fd`; false on an error (errno tells which).
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
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

    /// Opens `path` for writing, creating or emptying it.
    static func create(_ path: String, mode: mode_t = 0o644) throws(Failure) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else { throw Failure(description: "cannot create \(path): \(errorText())") }
        return fd
    }

    /// Writes `text` to `path`, replacing it.
    static func write(_ text: String, to path: String) throws(Failure) {
        let fd = try create(path)
        defer { close(fd) }
        var text = text
        guard text.withUTF8({ writeAll(fd, UnsafeRawBufferPointer($0)) }) else {
            throw Failure(description: "cannot write \(path): \(errorText())")
        }
    }

    /// Copies `source` to `destination`, replacing it.
    static func copy(_ source: String, to destination: String) throws(Failure) {
        let fd = try create(destination, mode: 0o600)
        defer { close(fd) }
        try forEachChunk(of: source) { chunk throws(Failure) in
            guard writeAll(fd, chunk) else { throw Failure(description: "cannot write \(destination): \(errorText())") }
        }
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

    /// Whether `path` exists.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
