import CloudSyncCore
import CloudSyncService
#if canImport(Glibc)
import Glibc
#endif

/// The wake-up files of the embedded cloud: one empty file per listening device in the folder
/// `<cloud file>-wake/`, created by the device's listener. A writer that enqueued a notification
/// for a device touches that device's file (`utimensat`, one system call, nothing written); the
/// listener watches it with inotify and sleeps in `poll` until then, so an idle listener uses no
/// CPU. A device that never listened has no file, and touching it is a cheap `ENOENT`.
public struct NotificationWakeUpFiles: Sendable, Hashable {
    /// The folder of the files.
    public let directory: String

    /// The wake-up files of the cloud file at `cloudPath` (symbolic links resolved, so that
    /// every process finds the same folder however it names the file).
    public init(cloudPath: String) {
        var resolved = cloudPath
        if let real = realpath(cloudPath, nil) {
            resolved = String(cString: real)
            free(real)
        }
        directory = resolved + "-wake"
    }

    /// The file of one device: `<userRecordName>~<deviceID>`, each percent-encoded down to
    /// letters, digits, `_`, `-`, `.` and `@`.
    public func path(for device: DeviceAddress) -> String {
        directory + "/" + NotificationWakeUpFiles.encode(device.userRecordName) + "~"
            + NotificationWakeUpFiles.encode(device.deviceID)
    }

    /// Wakes the listeners of `device` (if any). Never fails: a missing file means nobody listens.
    public func post(_ device: DeviceAddress) {
        _ = utimensat(AT_FDCWD, path(for: device), nil, 0)
    }

    /// Creates the folder (0700) and the device's file (0600) if missing; returns the file's path.
    func prepare(_ device: DeviceAddress) throws(CloudError) -> String {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw CloudError(.internalError, "cannot create the wake-up folder \(directory): \(String(cString: strerror(errno)))")
        }
        let file = path(for: device)
        let fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CloudError(.internalError, "cannot create the wake-up file \(file): \(String(cString: strerror(errno)))")
        }
        close(fd)
        return file
    }

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            let safe = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                || scalar == "_" || scalar == "-" || scalar == "." || scalar == "@"
            if safe {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

/// Waits on a device's wake-up file with inotify (`IN_ATTRIB`, `IN_MODIFY`, `IN_CLOSE_WRITE`).
/// If the file is deleted or moved, the next wait re-creates it and watches it again (and
/// reports a wake-up, since one may have been missed).
public final class InotifyNotificationWaiter: NotificationWaiter {
    let files: NotificationWakeUpFiles
    let device: DeviceAddress
    let fd: Int32
    var watch: Int32 = -1
    public var mechanism: String { "inotify" }

    static let inModify: UInt32 = 0x0000_0002
    static let inAttrib: UInt32 = 0x0000_0004
    static let inCloseWrite: UInt32 = 0x0000_0008
    static let inDeleteSelf: UInt32 = 0x0000_0400
    static let inMoveSelf: UInt32 = 0x0000_0800
    static let inQueueOverflow: UInt32 = 0x0000_4000
    static let inIgnored: UInt32 = 0x0000_8000
    static let mask = inModify | inAttrib | inCloseWrite | inDeleteSelf | inMoveSelf

    /// Watches the wake-up file of `device`, creating it. Fails when inotify is not available
    /// (the caller then polls).
    public init(files: NotificationWakeUpFiles, device: DeviceAddress) throws(CloudError) {
        self.files = files
        self.device = device
        let descriptor = inotify_init1(Int32(O_CLOEXEC | O_NONBLOCK))
        guard descriptor >= 0 else {
            throw CloudError(.internalError, "inotify is not available: \(String(cString: strerror(errno)))")
        }
        fd = descriptor
        do {
            try arm()
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(fd) }

    func arm() throws(CloudError) {
        let file = try files.prepare(device)
        let wd = inotify_add_watch(fd, file, InotifyNotificationWaiter.mask)
        guard wd >= 0 else {
            throw CloudError(.internalError, "cannot watch \(file) with inotify: \(String(cString: strerror(errno)))")
        }
        watch = wd
    }

    public func wait(timeout: Double) -> Bool {
        if watch < 0 {
            // The file went away: watch it again, and say "maybe" since a wake-up may be lost.
            if (try? arm()) != nil { return true }
            NotificationClock.sleep(min(max(timeout, 0), 0.5))
            return true
        }
        let milliseconds = Int32(min(max(timeout, 0) * 1000, Double(Int32.max)).rounded(.up))
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        guard ready > 0 else { return false }
        drain()
        return true
    }

    /// Reads every queued event; notes when the watch ended.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            while offset + 16 <= count {
                let wd = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let nameLength = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) }
                if wd == watch, mask & (InotifyNotificationWaiter.inIgnored | InotifyNotificationWaiter.inDeleteSelf
                           | InotifyNotificationWaiter.inMoveSelf) != 0 {
                    inotify_rm_watch(fd, watch)
                    watch = -1
                }
                offset += 16 + Int(nameLength)
            }
        }
    }
}
