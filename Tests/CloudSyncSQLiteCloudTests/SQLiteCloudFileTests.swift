import CloudSyncCloud
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

    @Test func locatorParsesURLs() throws {
        #expect(try CloudLocator(parsing: "sqlite:///tmp/a%20b.sqlite") == .sqlite(path: "/tmp/a b.sqlite"))
        #expect(try CloudLocator(parsing: "sqlite:rel/c.sqlite") == .sqlite(path: "rel/c.sqlite"))
        #expect(try CloudLocator(parsing: "postgres://u@h/db") == .postgres(url: "postgres://u@h/db"))
        #expect(try CloudLocator(parsing: "https://example/x") == .http(url: "https://example/x"))
        for bad in ["", "sqlite://relative", "sqlite:", "/abs/c.sqlite", "cloud.sqlite", "garbage", "nope://x",
                    "sqlite:///a\nb"] {
            #expect(cloudError { _ = try CloudLocator(parsing: bad) }?.code == .invalidArguments, "\(bad)")
        }
    }

    @Test func tokenCodecRoundTripsAndRejectsGarbage() throws {
        let payload = TokenPayload(kind: .zone, epoch: 0xDEAD_BEEF_0102_0304, scopeID: 42, sequence: 1 << 40)
        let text = ChangeTokenCodec.encode(payload)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(try ChangeTokenCodec.decode(text, expecting: .zone) == payload)
        #expect(cloudError { _ = try ChangeTokenCodec.decode(text, expecting: .database) }?.code == .changeTokenExpired)
        #expect(cloudError { _ = try ChangeTokenCodec.decode("AAAA", expecting: .zone) }?.code == .invalidArguments)
        #expect(cloudError { _ = try ChangeTokenCodec.decode(String(text.dropLast(2)), expecting: .zone) }?.code == .invalidArguments)
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
