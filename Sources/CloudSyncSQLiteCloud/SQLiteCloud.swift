import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite
#if canImport(Glibc)
import Glibc
#endif

/// The embedded cloud: every container, account and database in one SQLite file, in WAL mode
/// with a busy timeout so that several `cloudsync` processes (devices) share it.
///
/// The service's rules are `StorageBackedCloud`'s; this is that service over `SQLiteCloudStorage`.
/// Change sequencing: each zone has a counter; a modify call takes the next numbers inside its
/// `BEGIN IMMEDIATE` transaction, so writers serialize and a reader never sees seq N+1 before N.
/// Each record row keeps its latest seq; deletions leave tombstones.
public final class SQLiteCloud: StorageBackedCloud, @unchecked Sendable {
    public let path: String

    /// Opens (creating if needed) the cloud file at `path`.
    public init(path: String, clock: @escaping CloudClock = systemClock) throws(CloudError) {
        self.path = path
        super.init(storage: try SQLiteCloudStorage(path: path), clock: clock)
    }

    /// The path SQLite takes for a database held in memory.
    static let inMemoryPath = ":memory:"

    /// An empty cloud held in memory and gone when closed: what a read-only command answers
    /// from when the default cloud has not been made yet, so that it creates no file.
    public static func emptyInMemory(clock: @escaping CloudClock = systemClock) throws(CloudError) -> SQLiteCloud {
        try SQLiteCloud(path: inMemoryPath, clock: clock)
    }

    static func openError(_ error: SQLiteError, path: String) -> CloudError {
        if error.isCorrupt {
            return CloudError(.badDatabase, "cloud file \(path) is not a cloudsync database (\(error.message))")
        }
        if error.isBusy {
            return CloudError(.serviceUnavailable, "cloud file \(path) is locked by another process", retryAfter: 1)
        }
        return CloudError(.badDatabase, "\(cannotOpenPrefix)\(path): \(error.message)")
    }

    private static let cannotOpenPrefix = "cannot open the cloud file "

    /// True for the error of a cloud file that could not be opened or created at all (an
    /// unwritable or missing folder): a local I/O failure, not a damaged or busy cloud.
    public static func isFileAccessFailure(_ error: CloudError) -> Bool {
        error.code == .badDatabase && error.reason.hasPrefix(cannotOpenPrefix)
    }

    /// Creates the tables of a new (or zero-length) file with a fresh random store epoch, or
    /// checks that an existing file is a cloud this build reads and upgrades an older one
    /// (`SQLiteCloudSchema.migrator`). Returns the store epoch.
    static func prepare(_ db: Connection, path: String) throws -> UInt64 {
        try SQLiteCloudSchema.migrator.prepare(db, path: path) { db in
            try db.run("INSERT INTO meta(key, value) VALUES ('epoch', ?)", RandomID.hex(bytes: 8))
        }
        guard let text = try db.queryOne("SELECT value FROM meta WHERE key='epoch'", [], { $0.string(0) }),
              let value = UInt64(text, radix: 16) else {
            throw CloudError(.badDatabase, "cloud file \(path) has no store epoch")
        }
        return value
    }
}
