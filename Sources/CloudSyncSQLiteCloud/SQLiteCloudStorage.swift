import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite
import Synchronization

/// The embedded cloud's storage: the tables of one SQLite file (`SQLiteCloudSchema`), with no
/// rules of the service (those are `StorageBackedCloud`'s).
///
/// One connection, used by one transaction at a time. A write transaction is `BEGIN
/// IMMEDIATE`, so writers of the file (any process) serialize and commit in counter order; a
/// read transaction is a deferred one, a consistent snapshot.
final class SQLiteCloudStorage: CloudStorage, @unchecked Sendable {
    let connection: Connection
    let state = Mutex(())
    let epoch: UInt64
    let path: String

    /// Opens (creating if needed) the cloud file at `path`.
    init(path: String) throws(CloudError) {
        self.path = path
        do {
            var options = Connection.Options()
            // A file is made 0600 before SQLite opens it; a cloud in memory has no file.
            if path != SQLiteCloud.inMemoryPath { options.fileMode = 0o600 }
            connection = try Connection(path: path, options: options)
        } catch {
            throw SQLiteCloud.openError(error, path: path)
        }
        do {
            epoch = try SQLiteCloud.prepare(connection, path: path)
        } catch let error as CloudError {
            throw error
        } catch let error as MigrationError {
            throw CloudError(.badDatabase, error.description)
        } catch let error as SQLiteError {
            throw SQLiteCloud.openError(error, path: path)
        } catch {
            throw CloudError(.internalError, "cannot open the cloud file \(path): \(error)")
        }
    }

    func read<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try guarded {
            try connection.transaction(.deferred) { try body(SQLiteCloudTransaction(connection: connection, path: path)) }
        }
    }

    func write<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try guarded {
            try connection.transaction(.immediate) { try body(SQLiteCloudTransaction(connection: connection, path: path)) }
        }
    }

    func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        do {
            return try InotifyNotificationWaiter(files: NotificationWakeUpFiles(cloudPath: path), device: device)
        } catch {
            return PollingNotificationWaiter(interval: 0.25)
        }
    }

    /// Runs `body` holding the connection, mapping every failure to a `CloudError`.
    func guarded<T>(_ body: () throws -> T) throws(CloudError) -> T {
        do {
            return try state.withLock { _ in try body() }
        } catch let error as CloudError {
            throw error
        } catch let error as SQLiteError {
            if error.isBusy {
                throw CloudError(.serviceUnavailable, "the cloud file is busy (locked by another process)", retryAfter: 1)
            }
            if error.isCorrupt {
                throw CloudError(.badDatabase, "cloud file \(path) is damaged: \(error.message)")
            }
            if error.primaryCode == 13 /* SQLITE_FULL */ {
                throw CloudError(.quotaExceeded, "the cloud file's disk is full")
            }
            throw CloudError(.internalError, "cloud storage failed: \(error.message)")
        } catch {
            throw CloudError(.internalError, "cloud failed: \(error)")
        }
    }
}
