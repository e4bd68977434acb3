@testable import CloudSyncSQLiteCloud
import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The cloud file's format: older files upgrade through `SQLiteCloudSchema.migrator` keeping
/// their epoch and data, newer ones are refused, an emptied one becomes a new cloud with a new
/// epoch, and the file is private to its user.
@Suite("Cloud file format")
struct CloudFileFormatTests {
    let dir = TemporaryDirectory("cloud-format")

    func sqlite3(_ path: String, _ sql: String) -> String {
        let result = ProcessSpawner.run("/usr/bin/sqlite3", [path], environment: [:], stdin: sql)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").joined(separator: "\n")
    }

    /// A cloud file of format `version`, written by the sqlite3 shell from the ladder's steps,
    /// with one account and its private database.
    func fixture(version: Int64) -> String {
        let path = dir.file("v\(version).sqlite")
        let sql = SQLiteCloudSchema.migrator.steps.prefix(Int(version)).map(\.sql).joined(separator: "\n") + """

            INSERT INTO meta(key, value) VALUES ('format', 'cloudsync-cloud'), ('epoch', '0123456789abcdef');
            INSERT INTO accounts VALUES ('alice', '_0123456789abcdef0123456789abcdef', 1);
            PRAGMA user_version=\(version);
            """
        _ = sqlite3(path, sql)
        return path
    }

    @Test(arguments: [1, 2, 3] as [Int64])
    func olderFormatsUpgradeKeepingEpochAndData(version: Int64) throws {
        let path = fixture(version: version)
        let cloud = try SQLiteCloud(path: path)
        #expect(cloud.epoch == 0x0123_4567_89ab_cdef)
        #expect(try cloud.account(named: "alice").userRecordName == "_0123456789abcdef0123456789abcdef")
        #expect(sqlite3(path, "PRAGMA user_version;") == "\(SQLiteCloudSchema.migrator.latestVersion)")
        let request = DatabaseRequest(container: "iCloud.t", scope: .private,
                                      userRecordName: "_0123456789abcdef0123456789abcdef", deviceID: "d")
        _ = try cloud.saveZones([ZoneSpec(name: "Z")], in: request)
        #expect(try cloud.fetchAllZones(in: request).map(\.zoneID.zoneName) == ["_defaultZone", "Z"])
    }

    @Test func aNewerFormatIsRefused() throws {
        let path = fixture(version: 4)
        _ = sqlite3(path, "PRAGMA user_version=99;")
        let error = cloudError { _ = try SQLiteCloud(path: path) }
        #expect(error?.code == .badDatabase, "exit 69")
        #expect(error?.reason.contains("format version 99") == true)
        #expect(sqlite3(path, "PRAGMA user_version;") == "99")
    }

    @Test func anEmptiedCloudFileIsANewCloudWithANewEpoch() throws {
        let path = dir.file("cloud.sqlite")
        let first = try SQLiteCloud(path: path).epoch
        #expect(truncate(path, 0) == 0)
        let second = try SQLiteCloud(path: path).epoch
        #expect(second != first)
        #expect(sqlite3(path, "SELECT value FROM meta WHERE key='epoch';") == String(second, radix: 16).leftPadded(16))
        #expect(try SQLiteCloud(path: path).epoch == second, "stable once written")
    }

    @Test func theFileAndItsWALAreOwnerOnly() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let path = dir.file("private.sqlite")
        let cloud = try SQLiteCloud(path: path)
        _ = try cloud.account(named: "alice")
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(file)")
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
