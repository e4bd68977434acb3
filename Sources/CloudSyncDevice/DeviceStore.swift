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
    static let version: Int64 = 3

    let connection: Connection
    public let path: String

    /// Opens (creating if needed, mode 0600) the device file at `path`.
    /// - Parameters:
    ///   - path: the device file, created when missing.
    ///   - exclusiveWhenAlone: hold the file's lock while open when no other process has it open
    ///     (see `Connection.Options.exclusiveWhenAlone`): for short read-mostly commands only.
    public init(path: String, exclusiveWhenAlone: Bool = false) throws(CloudError) {
        self.path = path
        var options = Connection.Options()
        options.fileMode = 0o600
        options.exclusiveWhenAlone = exclusiveWhenAlone
        do {
            connection = try Connection(path: path, options: options)
            try DeviceStore.prepare(connection, path: path)
        } catch let error as CloudError {
            throw error
        } catch let error as SQLiteError {
            if error.isCorrupt {
                throw CloudError(.badDatabase, "device file \(path) is not a cloudsync device store (\(error.message))")
            }
            throw CloudError(.badDatabase, "cannot open the device file \(path): \(error.message)")
        } catch {
            throw CloudError(.internalError, "cannot open the device file \(path): \(error)")
        }
    }

    /// The conventional location of a device file under `home`.
    public static func defaultPath(home: String, account: String, device: String) -> String {
        "\(home)/devices/\(account)/\(device).sqlite"
    }

    static func prepare(_ db: Connection, path: String) throws {
        // One statement for an existing store: its format mark and schema version. A file
        // without the meta table is new (or not ours), which is decided under a write lock below.
        let existing: (format: String?, version: Int64)?
        do {
            existing = try db.queryOne("""
                SELECT (SELECT value FROM meta WHERE key='format'), (SELECT user_version FROM pragma_user_version)
                """) { ($0.optionalString(0), $0.int64(1)) }
        } catch let error as SQLiteError where error.isNoSuchTable {
            existing = nil
        }
        if let (format, version) = existing {
            guard format == DeviceStore.format else {
                throw CloudError(.badDatabase, "\(path) is an SQLite file but not a cloudsync device store")
            }
            guard version <= DeviceStore.version else {
                throw CloudError(.badDatabase, "device file \(path) has format version \(version); this cloudsync reads up to \(DeviceStore.version)")
            }
            if version < DeviceStore.version { try migrate(db, from: version) }
            return
        }
        try db.transaction(.immediate) {
            if try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'") ?? 0 > 0 { return }
            let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table'") ?? 0
            guard tables == 0 else {
                throw CloudError(.badDatabase, "\(path) is an SQLite file but not a cloudsync device store")
            }
            try db.execute("""
                CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE database_tokens(
                    container TEXT NOT NULL, scope TEXT NOT NULL, token TEXT NOT NULL, updated_ms INTEGER NOT NULL,
                    PRIMARY KEY(container, scope));
                CREATE TABLE zone_tokens(
                    container TEXT NOT NULL, scope TEXT NOT NULL, zone_name TEXT NOT NULL, owner TEXT NOT NULL,
                    token TEXT NOT NULL, updated_ms INTEGER NOT NULL,
                    PRIMARY KEY(container, scope, zone_name, owner));
                CREATE TABLE cached_records(
                    container TEXT NOT NULL, scope TEXT NOT NULL, zone_name TEXT NOT NULL, owner TEXT NOT NULL,
                    record_name TEXT NOT NULL, record_type TEXT NOT NULL, change_tag TEXT NOT NULL,
                    fields TEXT NOT NULL,
                    created_ms INTEGER NOT NULL, created_user TEXT NOT NULL, created_device TEXT NOT NULL,
                    modified_ms INTEGER NOT NULL, modified_user TEXT NOT NULL, modified_device TEXT NOT NULL,
                    PRIMARY KEY(container, scope, zone_name, owner, record_name)) WITHOUT ROWID;
                """)
            try db.run("INSERT INTO meta(key, value) VALUES ('format', ?)", DeviceStore.format)
            try db.setUserVersion(1)
            try migrate(db, from: 1)
        }
    }

    /// Brings an older device file up to the current format, one version at a time, each step
    /// in the same transaction as its version bump.
    static func migrate(_ db: Connection, from version: Int64) throws {
        try db.transaction(.immediate) {
            let current = try db.userVersion
            if current < 2 {
                try db.execute(LocalStoreSchema.version2)
                try db.setUserVersion(2)
            }
            if current < 3 {
                try db.execute(LocalStoreSchema.version3)
                try db.setUserVersion(3)
            }
        }
        _ = version
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
            throw CloudError(.internalError, "device storage failed: \(error.message)")
        } catch {
            throw CloudError(.internalError, "device storage failed: \(error)")
        }
    }
}
