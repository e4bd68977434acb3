import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Watches a device file for commits by any process, with inotify on its folder: a commit
/// writes the file's write-ahead log (`<file>-wal`), or the file itself in rollback mode. No
/// timer: the descriptor becomes readable when something was written, and `SyncEngine` sleeps
/// in `poll` on it. Its own writes wake it too; the engine tells them apart with
/// `DeviceStore.dataVersion()`.
final class DeviceFileWatcher {
    /// The inotify descriptor, for `poll`.
    let fd: Int32
    /// The names in the folder that count: the file and its write-ahead log.
    let names: Set<String>

    static let inModify: UInt32 = 0x0000_0002
    static let inCloseWrite: UInt32 = 0x0000_0008
    static let inMovedTo: UInt32 = 0x0000_0080
    static let inCreate: UInt32 = 0x0000_0100

    /// Watches the folder of `path`.
    init(path: String) throws(CloudError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        names = [name, name + "-wal", name + "-journal"]
        let descriptor = inotify_init1(Int32(O_CLOEXEC | O_NONBLOCK))
        guard descriptor >= 0 else {
            throw CloudError(.internalError, "inotify is not available: \(String(cString: strerror(errno)))")
        }
        let mask = Self.inModify | Self.inCloseWrite | Self.inMovedTo | Self.inCreate
        guard inotify_add_watch(descriptor, folder.isEmpty ? "/" : folder, mask) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw CloudError(.internalError, "cannot watch \(folder) with inotify: \(reason)")
        }
        fd = descriptor
    }

    deinit { close(fd) }

    /// Reads every queued event; true when one concerned the device file.
    func drain() -> Bool {
        var touched = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return touched }
            var offset = 0
            while offset + 16 <= count {
                let nameLength = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                if nameLength > 0, offset + 16 + nameLength <= count {
                    let raw = buffer[(offset + 16)..<(offset + 16 + nameLength)]
                    let name = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    if names.contains(name) { touched = true }
                } else if nameLength == 0 {
                    touched = true
                }
                offset += 16 + nameLength
            }
        }
    }
}
