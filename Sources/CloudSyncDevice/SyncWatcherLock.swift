import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// One watcher per device: a lock file beside the device file (`<file>-watch`, holding the
/// watcher's PID, locked with `flock` for as long as the watcher lives, so a crashed watcher
/// leaves no stale lock) and a status file (`<file>-watch.json`: PID, since when, last cycle,
/// state) that `store status` reads.
public final class SyncWatcherLock {
    /// What a status file says about a running watcher.
    public struct Status: Sendable, Hashable {
        public var pid: Int32
        /// When the watcher started (ms since the epoch).
        public var since: Int64
        /// When its last cycle ended (ms since the epoch), or nil before the first.
        public var lastCycle: Int64?
        /// `starting`, `online`, `offline` or `off` (the account's sync switch is off).
        public var state: String

        public init(pid: Int32, since: Int64, lastCycle: Int64?, state: String) {
            self.pid = pid
            self.since = since
            self.lastCycle = lastCycle
            self.state = state
        }

        var json: JSONValue {
            .object([("pid", .int(Int64(pid))), ("since", .int(since)), ("lastCycle", lastCycle.map { .int($0) } ?? .null),
                     ("state", .string(state))])
        }
    }

    /// The lock file of the device file at `devicePath`.
    public static func lockPath(devicePath: String) -> String { devicePath + "-watch" }
    /// The status file of the device file at `devicePath`.
    public static func statusPath(devicePath: String) -> String { devicePath + "-watch.json" }

    let fd: Int32
    let devicePath: String
    /// The status as last written.
    public private(set) var status: Status

    /// Takes the lock of the device file at `devicePath`. Throws `zoneBusy` (try again later)
    /// naming the PID of the watcher that holds it.
    public init(devicePath: String, now: Int64) throws(CloudError) {
        self.devicePath = devicePath
        let path = Self.lockPath(devicePath: devicePath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CloudError(.internalError, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readPID(descriptor)
            close(descriptor)
            throw CloudError(.zoneBusy, "a watcher already runs for this device (PID \(holder.map(String.init) ?? "unknown")); stop it first")
        }
        fd = descriptor
        let pid = getpid()
        let text = Array("\(pid)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        status = Status(pid: pid, since: now, lastCycle: nil, state: "starting")
        write()
    }

    deinit {
        unlink(Self.statusPath(devicePath: devicePath))
        close(fd)
    }

    /// Records the state after a cycle (or a change of state).
    public func update(state: String, lastCycle: Int64?) {
        status.state = state
        if let lastCycle { status.lastCycle = lastCycle }
        write()
    }

    /// Writes the status file: a temporary file renamed into place, so a reader sees a whole one.
    func write() {
        let path = Self.statusPath(devicePath: devicePath)
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let bytes = Array((status.json.serialized() + "\n").utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // A full disk: keep the last whole status rather than an empty one.
        guard written == bytes.count else { unlink(temporary); return }
        rename(temporary, path)
    }

    /// The running watcher of the device file at `devicePath`, or nil when none runs (the lock is free).
    public static func running(devicePath: String) -> Status? {
        let descriptor = open(lockPath(devicePath: devicePath), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        let pid = readPID(descriptor) ?? 0
        guard let bytes = readFile(statusPath(devicePath: devicePath)),
              let json = try? JSONValue.parse(String(decoding: bytes, as: UTF8.self)) else {
            return Status(pid: pid, since: 0, lastCycle: nil, state: "starting")
        }
        return Status(pid: Int32(json["pid"]?.int64Value ?? Int64(pid)), since: json["since"]?.int64Value ?? 0,
                      lastCycle: json["lastCycle"]?.int64Value, state: json["state"]?.stringValue ?? "starting")
    }

    static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<n], as: UTF8.self).filter(\.isNumber))
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { return all }
            all += buffer[0..<n]
        }
    }
}
