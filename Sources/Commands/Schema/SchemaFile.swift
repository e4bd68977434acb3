import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading a .ckdb file (or `-`, standard input) and writing one.
enum SchemaFile {
    /// The parser's own bound on a schema's size, plus one byte to tell a larger file.
    static let readLimit = SchemaParser.Limits.standard.maxBytes + 1

    /// The bytes of `path` (`-`: standard input), at most `readLimit`. A missing file is not
    /// found (3); an unreadable one is bad input (65).
    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound("\(path): no such file") }
            throw .badInput("\(path): \(String(cString: strerror(code)))")
        }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
                if bytes.count >= readLimit { break }
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw .badInput("\(path): \(String(cString: strerror(errno)))")
            }
        }
        return bytes
    }

    /// Parses `path`; a refusal, bytes that are not UTF-8 text included, is
    /// `FILE:LINE:COLUMN: message` (65).
    static func parse(_ path: String) throws(CLIError) -> CloudSchema {
        let bytes = try read(path)
        do {
            return try SchemaParser.parse(bytes: bytes)
        } catch {
            throw .badInput(error.rendered(file: path == "-" ? "<stdin>" : path))
        }
    }

    /// Writes `text` to `path` (mode 0644, replacing it).
    static func write(_ text: String, to path: String) throws(CLIError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .failed("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            bytes = bytes.dropFirst(count)
        }
    }
}
