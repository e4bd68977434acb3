import CloudSyncCore
import CloudSyncDevice
import CloudSyncSQLite
import Dispatch
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The device file's format: older files upgrade through `DeviceStore.migrator`, newer and
/// emptied ones are refused, and every file is private to its user.
@Suite("Device file format")
struct DeviceFileFormatTests {
    let dir = TemporaryDirectory("device-format")

    func sqlite3(_ path: String, _ sql: String) -> String {
        let result = ProcessSpawner.run("/usr/bin/sqlite3", [path], environment: [:], stdin: sql)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").joined(separator: "\n")
    }

    func openError(_ path: String) -> CloudError? {
        do {
            _ = try DeviceStore(path: path)
            return nil
        } catch {
            return error
        }
    }

    /// A device file of format `version`, written by the sqlite3 shell from the ladder's steps,
    /// with one cached record (and, from version 2, one local record).
    func fixture(version: Int64) -> String {
        let path = dir.file("v\(version).sqlite")
        var sql = DeviceStore.migrator.steps.prefix(Int(version)).map(\.sql).joined(separator: "\n")
        sql += """

            INSERT INTO meta(key, value) VALUES ('format', 'cloudsync-device');
            INSERT INTO zone_tokens VALUES ('iCloud.t', 'private', 'Z', '_o', 'tok', 1);
            INSERT INTO cached_records VALUES ('iCloud.t', 'private', 'Z', '_o', 'r1', 'Note', 'tag', '{}',
                1, 'u', 'd', 2, 'u', 'd');
            PRAGMA user_version=\(version);
            """
        if version >= 2 {
            sql += "\nINSERT INTO local_records VALUES ('iCloud.t', 'Z', 'r1', 'Note', '{}', 3);"
        }
        _ = sqlite3(path, sql)
        return path
    }

    @Test(arguments: [1, 2] as [Int64])
    func olderFormatsUpgradeKeepingTheirData(version: Int64) throws {
        let path = fixture(version: version)
        _ = try DeviceStore(path: path)
        #expect(sqlite3(path, "PRAGMA user_version;") == "\(DeviceStore.migrator.latestVersion)")
        #expect(sqlite3(path, "SELECT record_name FROM cached_records; SELECT token FROM zone_tokens;") == "r1\ntok")
        #expect(sqlite3(path, "SELECT count(*) FROM kv_local; SELECT count(*) FROM local_records;")
                == "0\n\(version >= 2 ? 1 : 0)")
        // Opened again: already current, nothing to do.
        _ = try DeviceStore(path: path)
        #expect(sqlite3(path, "SELECT value FROM meta WHERE key='format';") == "cloudsync-device")
    }

    @Test func aNewerFormatIsRefusedAndLeftAlone() throws {
        let path = fixture(version: 2)
        _ = sqlite3(path, "PRAGMA user_version=\(DeviceStore.migrator.latestVersion + 1);")
        let error = openError(path)
        #expect(error?.code == .badDatabase, "exit 69")
        #expect(error?.reason.contains("newer than this cloudsync reads") == true)
        #expect(sqlite3(path, "PRAGMA user_version;") == "\(DeviceStore.migrator.latestVersion + 1)")
    }

    @Test func anEmptiedDeviceFileIsRefusedNotStartedOver() throws {
        let path = dir.file("emptied.sqlite")
        _ = try DeviceStore(path: path)
        #expect(truncate(path, 0) == 0)
        let error = openError(path)
        #expect(error?.code == .invalidArguments, "exit 65")
        #expect(error?.reason.contains("move the file away") == true)
        #expect(!(error?.reason.contains("\n") ?? true))
        #expect(TemporaryDirectory.readBytes(path)?.count == 0, "left as found")
        // An SQLite file without any table is the same loss.
        let bare = dir.file("bare.sqlite")
        _ = sqlite3(bare, "PRAGMA user_version=0; VACUUM;")
        #expect(openError(bare)?.code == .invalidArguments)
        // A foreign database stays a bad database.
        let foreign = dir.file("foreign.sqlite")
        _ = sqlite3(foreign, "CREATE TABLE t(x);")
        #expect(openError(foreign)?.code == .badDatabase)
    }

    @Test func concurrentFirstOpensAllGetTheSameCompleteFile() throws {
        let path = dir.file("raced.sqlite")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do { _ = try DeviceStore(path: path) } catch { failures.withLock { $0.append("\(error)") } }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(sqlite3(path, "PRAGMA user_version;") == "\(DeviceStore.migrator.latestVersion)")
        let leftovers = ProcessSpawner.run("/bin/sh", ["-c", "ls '\(dir.path)' | grep -c new-"], environment: [:]).stdout
        #expect(leftovers.split(separator: "\n").first == "0", "no temporary files left behind")
    }

    @Test func theFileAndItsWALAreOwnerOnly() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let path = dir.file("private.sqlite")
        let store = try DeviceStore(path: path)
        _ = store
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(file)")
        }
    }
}

