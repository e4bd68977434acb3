import Glibc

/// The few file-system reads and writes the CLI needs, on raw system calls.
enum FileSystem {
    /// The result of reading a whole file.
    enum ReadResult {
        case contents([UInt8])
        /// The file (or a folder on the way to it) does not exist.
        case missing
        /// Any other failure, as a human reason.
        case failed(String)
    }

    /// Reads the whole file at `path`.
    static func readFile(_ path: String) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .failed(SystemInfo.errorDescription(code))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return .contents(bytes)
            } else if errno != EINTR {
                return .failed(SystemInfo.errorDescription(errno))
            }
        }
    }

    /// Writes every byte of `bytes` to `fd`, retrying on EINTR and short writes. Returns 0, or
    /// the errno that stopped it (EIO when the system gave none).
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return errno == 0 ? EIO : errno
                }
            }
            return 0
        }
    }

    /// True if `path` is a regular file (after symbolic links) that this user may execute.
    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// The names in a directory (without `.` and `..`); empty if it cannot be read.
    static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
