import CloudSyncCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real small filesystem for a device's home: a tmpfs of `kilobytes` mounted on a temporary
/// folder (mount(2) needs root or CAP_SYS_ADMIN, as the CI container has), unmounted at the end.
/// `fill()` takes every free block with a filler file, so the next write gets ENOSPC;
/// `free()` removes it.
final class SmallDisk {
    let folder = TemporaryDirectory("small-disk")
    var path: String { folder.path }
    var filler: String { folder.file("filler") }

    init(kilobytes: Int) throws {
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=\(kilobytes)k,mode=0700") == 0 else {
            throw CloudError(.internalError, "cannot mount a tmpfs on \(folder.path) (needs root or CAP_SYS_ADMIN): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes zeros into `filler` until the filesystem refuses (ENOSPC); the bytes it took.
    @discardableResult
    func fill() -> Int {
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var total = 0
        for size in [65536, 4096, 512, 1] {
            let chunk = [UInt8](repeating: 0, count: size)
            while true {
                let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                total += n
            }
        }
        return total
    }

    func free() { unlink(filler) }

    deinit { umount2(folder.path, Int32(MNT_DETACH)) }
}
