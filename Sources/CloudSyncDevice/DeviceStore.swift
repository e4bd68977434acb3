import CloudSyncCore
import CloudSyncSQLite
#if canImport(Glibc)
import Glibc
#endif

/// The device's own SQLite file: the cache of server records with their system fields, the
/// database change token and every zone token (seed 001), for one (account, device).
/// Later layers (local store, history, KV) add their tables to the same file.
public final class DeviceStore {
    static let format = "cloudsync-device"

    let connection: Connection
    public let path: String

    /// Opens (creating if needed, mode 0600) the device file at `path`.
    ///
    /// A new file is built complete under a temporary name and linked into place, so a device
    /// file without the format is never one this code is still creating: an existing file
    /// without it (zero-length, say) lost its state and pending edits, and is refused rather
    /// than silently started over.
    /// - Parameters:
    ///   - path: the device file, created when missing.
    ///   - briefly: for a short read-mostly command only: hold the file's lock while open when no
    ///     other process has it open (`Connection.Options.exclusiveWhenAlone`), and read its pages
    ///     through a memory map (`Connection.Options.memoryMapBytes`, up to
    ///     `briefMemoryMapBytes`).
    public init(path: String, briefly: Bool = false) throws(CloudError) {
        self.path = path
        var options = Connection.Options()
        options.fileMode = 0o600
        options.create = false
        options.exclusiveWhenAlone = briefly
        if briefly { options.memoryMapBytes = DeviceStore.briefMemoryMapBytes }
        do {
            var info = stat()
            if stat(path, &info) != 0 {
                if errno == ENOENT { try DeviceStore.createFile(at: path) }
            } else if info.st_size == 0 && (info.st_mode & S_IFMT) == S_IFREG {
                throw DeviceStore.emptyFileError(path)
            }
            connection = try Connection(path: path, options: options)
            try DeviceStore.prepare(connection, path: path)
        } catch let error as CloudError {
            throw error
        } catch let error as MigrationError {
            throw CloudError(.badDatabase, error.description)
        } catch let error as SQLiteError {
            if error.isCorrupt {
                throw CloudError(.badDatabase, "device file \(path) is not a cloudsync device store (\(error.message))")
            }
            throw CloudError(.badDatabase, "cannot open the device file \(path): \(error.message)")
        } catch {
            throw CloudError(.internalError, "cannot open the device file \(path): \(error)")
        }
    }

    /// An empty device store held in memory and gone when closed: what a read-only command
    /// reads when this device has no file yet, so that it creates none.
    public static func emptyInMemory() throws(CloudError) -> DeviceStore {
        do {
            let connection = try Connection(path: ":memory:", options: Connection.Options())
            try migrator.prepare(connection, path: ":memory:")
            return DeviceStore(connection: connection, path: ":memory:")
        } catch {
            throw CloudError(.internalError, "cannot make an empty device store in memory: \(error)")
        }
    }

    private init(connection: Connection, path: String) {
        self.connection = connection
        self.path = path
    }

    /// How much of the device file a short read-mostly command maps (the pages it reads; a
    /// larger file is read past this size as usual).
    public static let briefMemoryMapBytes: Int64 = 256 << 20

    /// The conventional location of a device file under `home`.
    public static func defaultPath(home: String, account: String, device: String) -> String {
        "\(home)/devices/\(account)/\(device).sqlite"
    }

    /// The device file's ladder: version 1 the cache of server records and the change tokens,
    /// 2 the local store (`LocalStoreSchema.version2`), 3 the key-value copy. New versions go
    /// at the end.
    public static let migrator = Migrator(format: format, fileKind: "device file", steps: [
        Migrator.Step(version: 1, sql: LocalStoreSchema.version1),
        Migrator.Step(version: 2, sql: LocalStoreSchema.version2),
        Migrator.Step(version: 3, sql: LocalStoreSchema.version3),
    ])

    /// The version this build writes.
    static var version: Int64 { migrator.latestVersion }

    /// Checks and, if older, upgrades an existing device file. One statement (the format mark)
    /// for an up-to-date file.
    static func prepare(_ db: Connection, path: String) throws {
        guard let mark = try migrator.readMark(db) else {
            let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table'") ?? 0
            guard tables == 0 else { throw MigrationError.foreignFile(path: path, fileKind: migrator.fileKind) }
            throw emptyFileError(path)
        }
        if try migrator.check(mark, path: path) { try migrator.upgrade(db, path: path) }
    }

    /// A device file that exists without any state: never silently started over.
    static func emptyFileError(_ path: String) -> CloudError {
        CloudError(.invalidArguments, """
            device file \(path) is empty: this device lost its state and pending edits; \
            move the file away (mv '\(path)' '\(path).empty') to start the device over
            """)
    }

    /// Builds a new device file at a temporary name beside `path` and links it into place
    /// (a concurrent creator that got there first wins; its file is as good).
    static func createFile(at path: String) throws {
        let temporary = path + ".new-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        defer {
            for file in [temporary] + Connection.sideFileSuffixes.map({ temporary + $0 }) { unlink(file) }
        }
        do {
            var options = Connection.Options()
            options.fileMode = 0o600
            options.persistentWAL = false
            let db = try Connection(path: temporary, options: options)
            try migrator.prepare(db, path: path)
        }
        guard link(temporary, path) != 0 else { return }
        let failure = errno
        if failure == EEXIST { return }
        // A file system without hard links: rename, unless a concurrent creator got there first.
        if (failure == EPERM || failure == EOPNOTSUPP) && access(path, F_OK) != 0 && rename(temporary, path) == 0 { return }
        throw CloudError(.badDatabase, "cannot create the device file \(path): \(String(cString: strerror(failure)))")
    }

    /// Maps storage failures of the device file to `CloudError`.
    func guarded<T>(_ body: () throws -> T) throws(CloudError) -> T {
        do {
            return try body()
        } catch let error as CloudError {
            throw error
        } catch let error as SQLiteError {
            if error.isBusy {
                throw CloudError(.zoneBusy, "the device file is busy (another cloudsync of this device is running)", retryAfter: 1)
            }
            if error.primaryCode == 13 /* SQLITE_FULL */ {
                throw CloudError(.quotaExceeded, "the disk of device file \(path) is full: free some space (nothing was written; changes already recorded stay pending)")
            }
            throw CloudError(.internalError, "device storage failed: \(error.message)")
        } catch {
            throw CloudError(.internalError, "device storage failed: \(error)")
        }
    }
}
