import CloudSyncSQLiteCloud
import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("The embedded cloud's file")
struct SQLiteCloudFileTests {
    @Test func corruptFileIsABadDatabaseAndIsLeftUntouched() throws {
        let dir = TemporaryDirectory()
        let junk = String(repeating: "this is not sqlite ", count: 300)
        let path = dir.write("cloud.sqlite", junk)
        let error = cloudError { _ = try SQLiteCloud(path: path) }
        #expect(error?.code == .badDatabase)
        #expect(error?.reason.contains(path) == true)
        #expect(TemporaryDirectory.readBytes(path) == Array(junk.utf8))
    }

    @Test func foreignSQLiteFileIsRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("other.sqlite")
        let status = ProcessSpawner.run("/usr/bin/sqlite3", [path, "CREATE TABLE t(x); INSERT INTO t VALUES (1);"], environment: [:]).status
        #expect(status == 0)
        let error = cloudError { _ = try SQLiteCloud(path: path) }
        #expect(error?.code == .badDatabase)
        #expect(error?.reason.contains("not a cloudsync cloud") == true)
    }

    @Test func unreadableLocationIsABadDatabase() throws {
        let error = cloudError { _ = try SQLiteCloud(path: "/nonexistent-dir/sub/cloud.sqlite") }
        #expect(error?.code == .badDatabase)
    }

    @Test func fileIsInWALModeAndReopens() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("cloud.sqlite")
        do {
            let cloud = try SQLiteCloud(path: path)
            let user = try cloud.account(named: "alice")
            let r = DatabaseRequest(container: "c", scope: .private, userRecordName: user.userRecordName, deviceID: "d")
            _ = try cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        }
        let mode = ProcessSpawner.run("/usr/bin/sqlite3", [path, "PRAGMA journal_mode;"], environment: [:]).stdout
        #expect(mode.trimmingCharacters() == "wal")
        let reopened = try SQLiteCloud(path: path)
        let user = try reopened.account(named: "alice")
        let r = DatabaseRequest(container: "c", scope: .private, userRecordName: user.userRecordName, deviceID: "d")
        #expect(try reopened.fetchAllZones(in: r).map(\.zoneID.zoneName) == ["_defaultZone", "Z"])
    }
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
