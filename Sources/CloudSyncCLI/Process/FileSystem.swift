import Glibc

/// The few file-system reads and writes the CLI needs, on raw system calls.
public enum FileSystem {
    /// The result of reading a whole file.
    public enum ReadResult: Sendable {
        case contents([UInt8])
        /// The file (or a folder on the way to it) does not exist.
        case missing
        /// Any other failure, as a human reason.
        case failed(String)
        /// Not a regular file (after symbolic links): a FIFO, a device, a folder, a socket;
        /// with what it is, in words. Nothing was read from it.
        case notRegular(String)
        /// Larger than the limit the caller gave; nothing is returned.
        case tooLarge(limit: Int)
    }

    /// The most bytes `readFile` reads unless told otherwise (1 MiB): enough for any config,
    /// history or man page, and a bound for a file that never ends.
    public static let defaultReadLimit = 1 << 20

    /// Reads the whole regular file at `path`, at most `limit` bytes. The file is opened without
    /// blocking (a FIFO with no writer does not hang) and refused unless it is a regular file
    /// after symbolic links; `/dev/null` reads as empty.
    public static func readFile(_ path: String, limit: Int = defaultReadLimit) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .failed(SystemInfo.errorDescription(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failed(SystemInfo.errorDescription(errno)) }
        let kind = info.st_mode & S_IFMT
        if kind != S_IFREG {
            if isDevNull(info) { return .contents([]) }
            return .notRegular(fileKind(kind))
        }
        if info.st_size > limit { return .tooLarge(limit: limit) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                // A file that grows while it is read still stops at the limit.
                guard bytes.count + count <= limit else { return .tooLarge(limit: limit) }
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return .contents(bytes)
            } else if errno != EINTR {
                return .failed(SystemInfo.errorDescription(errno))
            }
        }
    }

    /// True when `info` describes the character device `/dev/null`.
    static func isDevNull(_ info: stat) -> Bool {
        var null = stat()
        return info.st_mode & S_IFMT == S_IFCHR && stat("/dev/null", &null) == 0 && null.st_rdev == info.st_rdev
    }

    /// What a non-regular file is, in words (`a FIFO`, `a folder`, …).
    static func fileKind(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Writes every byte of `bytes` to `fd`, retrying on EINTR and short writes. Returns 0, or
    /// the errno that stopped it (EIO when the system gave none).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
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
    package static func directoryEntries(_ path: String) -> [String] {
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
