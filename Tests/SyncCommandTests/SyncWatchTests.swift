import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync sync --watch` on the embedded cloud: two devices, each with a watcher, kept in
/// sync without anyone running `store sync` (issue 27).
@Suite("sync --watch on the embedded cloud (end to end)")
struct SyncWatchTests {
    func pair(_ name: String) -> WatcherPair {
        let home = TemporaryDirectory("watch-\(name)")
        let runner = BinaryRunner(home: home.path)
        return WatcherPair(folder: home, a: runner, b: runner)
    }

    func title(_ expected: String) -> (JSONValue?) -> Bool {
        { $0?["fields"]?["title"]?["value"] == .string(expected) }
    }

    @Test func anEditOnOneDeviceBecomesReadableOnTheOther() throws {
        let pair = pair("edit")
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        #expect(pair.start("a") != nil, "\(pair.stderr("a"))")
        #expect(pair.start("b") != nil, "\(pair.stderr("b"))")
        #expect(pair.a.run(["store", "put", "Note", "n1", "--field", "title=hello"], device: "a").status == 0)
        #expect(pair.waitForRecord("n1", on: "b", title("hello")), "a's edit reached b: \(pair.stderr("a")) \(pair.stderr("b"))")
        #expect(pair.b.run(["store", "put", "Note", "n1", "--field", "title=edited on b"], device: "b").status == 0)
        #expect(pair.b.run(["store", "put", "Note", "n2", "--field", "title=new on b"], device: "b").status == 0)
        #expect(pair.waitForRecord("n1", on: "a", title("edited on b")))
        #expect(pair.waitForRecord("n2", on: "a", title("new on b")))
        #expect(pair.stop("a") == 0)
        #expect(pair.stop("b") == 0)
        let kinds = Set(pair.events("a").compactMap { $0["event"]?.stringValue })
        #expect(kinds.isSuperset(of: ["pushed", "pulled", "cycle"]), "\(kinds)")
        #expect(pair.b.run(["store", "status", "--json"], device: "b").stdout.contains("\"pending\":0"))
    }

    @Test func oneWatcherPerDeviceAndStoreStatusShowsIt() throws {
        let pair = pair("lock")
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        let first = try #require(pair.start("a"), "\(pair.stderr("a"))")
        let second = pair.a.run(["sync", "--watch"], device: "a")
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("PID \(first.pid)"), "\(second.stderr)")
        let status = try pair.a.run(["store", "status", "--json"], device: "a").json()
        #expect(status["watcher"]?["pid"] == .int(Int64(first.pid)), "\(status)")
        #expect(status["watcher"]?["state"] == .string("online"), "\(status)")
        #expect(status["watcher"]?["lastCycle"]?.int64Value != nil)
        #expect(pair.stop("a") == 0, "SIGTERM ends the watcher cleanly")
        #expect(try pair.a.run(["store", "status", "--json"], device: "a").json()["watcher"] == .null)
        // A watcher killed outright leaves no lock behind.
        let killed = try #require(pair.start("a", run: 1))
        kill(killed.pid, SIGKILL)
        _ = killed.wait(seconds: 10)
        #expect(pair.start("a", run: 2) != nil, "a new watcher starts after a kill -9: \(pair.stderr("a", run: 2))")
        #expect(pair.stop("a") == 0)
    }

    @Test func theSyncSwitchStopsAndResumesSending() throws {
        let pair = pair("switch")
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        #expect(pair.start("a") != nil)
        #expect(pair.start("b") != nil)
        #expect(pair.b.run(["store", "put", "Note", "before"], device: "b").status == 0)
        #expect(pair.waitForRecord("before", on: "a"))
        // A turns sync off: b's next cycle sees it and sends nothing.
        #expect(pair.a.run(["store", "sync", "off"], device: "a").status == 0)
        #expect(pair.b.run(["store", "put", "Note", "while-off"], device: "b").status == 0)
        let sawOff = BackgroundProcess.waitForText("\"event\":\"toggle\",", in: pair.folder.file("watch-b-0.out"), seconds: 20)
        #expect(sawOff, "\(BackgroundProcess.read(pair.folder.file("watch-b-0.out")))")
        #expect(pair.events("b").contains { $0["event"] == .string("toggle") && $0["syncOn"] == .bool(false) })
        #expect(try pair.b.run(["store", "status", "--json"], device: "b").json()["pending"] == .int(1), "not sent while off")
        #expect(try pair.b.run(["store", "status", "--json"], device: "b").json()["watcher"]?["state"] == .string("off"))
        // On again on a: the key-value change wakes b's watcher (a keyValue notification), which
        // pushes what was recorded meanwhile without anything done on b.
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        #expect(pair.waitForNames(["before", "while-off"], on: "a"), "\(pair.names("a")) \(pair.stderr("b"))")
        #expect(pair.events("b").contains { $0["event"] == .string("toggle") && $0["syncOn"] == .bool(true) })
        #expect(pair.b.run(["store", "put", "Note", "after"], device: "b").status == 0)
        #expect(pair.waitForNames(["after", "before", "while-off"], on: "a"), "\(pair.names("a"))")
        #expect(pair.stop("a") == 0)
        #expect(pair.stop("b") == 0)
    }

    @Test func aWatcherStartedWhileOffWakesWhenSyncIsTurnedOn() throws {
        let pair = pair("start-off")
        #expect(pair.a.run(["store", "sync", "off"], device: "a").status == 0)
        #expect(pair.start("b") != nil, "\(pair.stderr("b"))")
        #expect(pair.b.run(["store", "put", "Note", "queued"], device: "b").status == 0)
        // b's cycle after that commit ran with the switch off: the edit waits.
        #expect(BackgroundProcess.waitForText("\"pending\":1,\"syncOn\":false", in: pair.folder.file("watch-b-0.out"), seconds: 20),
                "\(BackgroundProcess.read(pair.folder.file("watch-b-0.out")))")
        #expect(try pair.b.run(["store", "status", "--json"], device: "b").json()["pending"] == .int(1), "not sent while off")
        // Turned on on a (no watcher there): b, registered while off, wakes and pushes.
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        #expect(BackgroundProcess.waitForText("\"event\":\"pushed\"", in: pair.folder.file("watch-b-0.out"), seconds: 20),
                "\(BackgroundProcess.read(pair.folder.file("watch-b-0.out")))")
        #expect(pair.a.run(["store", "sync"], device: "a").status == 0)
        #expect(pair.names("a") == ["queued"], "\(pair.names("a"))")
        #expect(pair.stop("b") == 0)
    }

    @Test func killingAWatcherMidPushLosesAndDuplicatesNothing() throws {
        let pair = pair("kill")
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        #expect(pair.start("b") != nil)
        var expected: [String] = []
        for round in 1...20 {
            let watcher = pair.start("a", run: round)
            #expect(watcher != nil, "round \(round): \(pair.stderr("a", run: round))")
            for index in 1...3 {
                let name = "r\(round)-\(index)"
                expected.append(name)
                #expect(pair.a.run(["store", "put", "Note", name, "--field", "title=\(name)"], device: "a").status == 0)
            }
            // Somewhere in the debounce or the push of that burst.
            sleepSeconds(Double(round % 4) * 0.1 + 0.15)
            if let watcher { kill(watcher.pid, SIGKILL); _ = watcher.wait(seconds: 10) }
            pair.watchers["a"] = nil
        }
        #expect(pair.start("a", run: 99) != nil, "the next watcher resumes")
        #expect(pair.waitForNames(expected.sorted(), on: "b"), "\(pair.names("b"))")
        #expect(pair.names("a") == expected.sorted())
        #expect(try pair.a.run(["store", "status", "--json"], device: "a").json()["pending"] == .int(0))
        #expect(pair.stop("a") == 0)
        #expect(pair.stop("b") == 0)
    }

    @Test func aDeliberateZoneDeleteSticksAndAPurgeIsRecreated() throws {
        let pair = pair("zones")
        let zone = "com.apple.coredata.cloudkit.zone"
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        #expect(pair.start("a") != nil)
        #expect(pair.start("b") != nil)
        #expect(pair.a.run(["store", "put", "Note", "n1", "--field", "title=one"], device: "a").status == 0)
        #expect(pair.waitForRecord("n1", on: "b"))
        // Deleted on purpose by a third device: both watchers drop it, nobody re-creates it.
        #expect(pair.a.run(["zone", "delete", zone, "--yes"], device: "c").status == 0)
        #expect(pair.waitForNames([], on: "a"), "\(pair.names("a"))")
        #expect(pair.waitForNames([], on: "b"), "\(pair.names("b"))")
        sleepSeconds(1)
        #expect(pair.a.run(["record", "get", "n1", "--zone", zone], device: "c").status == 3, "the delete stuck")
        #expect(pair.events("b").contains { $0["event"] == .string("zoneDropped") })
        // A purge (the user deleted the app's data): re-created with the records the devices hold.
        #expect(pair.b.run(["store", "put", "Note", "n2", "--field", "title=two"], device: "b").status == 0)
        #expect(pair.waitForRecord("n2", on: "a"))
        #expect(pair.a.run(["zone", "delete", zone, "--purge", "--yes"], device: "c").status == 0)
        var back = false
        for _ in 0..<200 where !back {
            back = pair.a.run(["record", "get", "n2", "--zone", zone], device: "c").status == 0
            if !back { sleepSeconds(0.1) }
        }
        #expect(back, "the purged zone was re-created and n2 uploaded again")
        #expect(pair.events("a").contains { $0["event"] == .string("zoneRecreated") }
                || pair.events("b").contains { $0["event"] == .string("zoneRecreated") })
        #expect(pair.names("a") == ["n2"] && pair.names("b") == ["n2"])
        #expect(pair.stop("a") == 0)
        #expect(pair.stop("b") == 0)
    }

    @Test func storeSyncWithSyncOffNeedsNoCloud() throws {
        let home = TemporaryDirectory("watch-off-offline")
        let cli = BinaryRunner(home: home.path)
        #expect(cli.run(["store", "put", "Note", "n1"], device: "a").status == 0)
        let result = cli.run(["store", "sync"], device: "a", env: ["CLOUDSYNC_FAULTS": "networkUnavailable:1000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sync is off") && result.stdout.contains("as last seen"), "\(result.stdout)")
    }

    @Test func aDamagedDeviceFileIsAClearError() throws {
        let home = TemporaryDirectory("watch-damaged")
        let cli = BinaryRunner(home: home.path)
        #expect(cli.run(["store", "put", "Note", "n1"], device: "a").status == 0)
        let path = home.path + "/devices/alice/a.sqlite"
        let fd = open(path, O_WRONLY | O_TRUNC)
        let garbage = Array(repeating: UInt8(0x5A), count: 8192)
        _ = garbage.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        let result = cli.run(["sync", "--watch"], device: "a")
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("a.sqlite"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test func aBadBackoffSettingIsAUsageError() throws {
        let home = TemporaryDirectory("watch-backoff")
        for value in ["fast", "1,1e300", "2,1", "0,1"] {
            for command in [["sync", "--watch"], ["subscribe", "listen", "--retry"]] {
                let result = BinaryRunner(home: home.path).run(command, device: "a", env: ["CLOUDSYNC_SYNC_BACKOFF": value])
                #expect(result.status == 64, "\(command) with \(value): \(result.stderr)")
                #expect(result.stderr.contains("CLOUDSYNC_SYNC_BACKOFF must be INITIAL,MAX"), "\(result.stderr)")
            }
        }
    }
}
