#if canImport(Glibc)
import Glibc
#endif

/// Folders for state files.
extension FileSystem {
    /// The folder part of a path.
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `mkdir -p` with `mode` for the folders it creates.
    public static func makeDirectories(_ path: String, mode: mode_t) throws {
        if path.isEmpty || path == "/" || path == "." { return }
        var isDir = stat()
        if stat(path, &isDir) == 0 {
            guard (isDir.st_mode & S_IFMT) == S_IFDIR else {
                throw CLIError.ioError("\(path) exists and is not a folder")
            }
            return
        }
        try makeDirectories(parent(of: path), mode: mode)
        if mkdir(path, mode) != 0 && errno != EEXIST {
            throw CLIError.ioError("cannot create folder \(path): \(String(cString: strerror(errno)))")
        }
    }
}
