#if canImport(Glibc)
import Glibc
#endif

/// A private temporary folder for the bench's files (clouds, devices, SQL scripts), removed at
/// the end unless kept. It stays flat: every file is created directly inside it.
final class WorkDirectory {
    let path: String
    let keep: Bool

    /// Creates `<base>/cloudsync-bench.XXXXXX`.
    init(base: String, keep: Bool) throws(FileIO.Failure) {
        var template = Array((base + "/cloudsync-bench.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw FileIO.Failure(description: "cannot create a folder under \(base): \(FileIO.errorText())")
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.keep = keep
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Removes a database file with its WAL and shared-memory companions.
    func removeDatabase(_ name: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { FileIO.remove(file(name) + suffix) }
    }

    /// Deletes the folder and everything in it (or leaves it, if asked to keep it).
    func cleanUp() {
        guard !keep else {
            Log.line("files kept in \(path)")
            return
        }
        guard let dir = opendir(path) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        for name in names { FileIO.remove(file(name)) }
        rmdir(path)
    }
}
