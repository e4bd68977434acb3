/// Finds a program on `$PATH`, as a shell does: the first executable regular file of that name
/// in the colon-separated folders (empty entries, which would mean the current folder, skipped).
public enum ExecutableSearch {
    /// The path of the executable `name` on `path`, or nil. A name containing `/` is taken as a
    /// path and returned if it is executable.
    public static func find(_ name: String, path: String?) -> String? {
        guard !name.isEmpty, !name.contains("\0") else { return nil }
        if name.contains("/") { return FileSystem.isExecutableFile(name) ? name : nil }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init) {
            let candidate = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            if FileSystem.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }
}
