import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `sync --watch` meeting a full disk (a real small tmpfs as the device's home) and a device
/// without the sync passphrase for encrypted fields: one clear line each, a bounded retry (no
/// spin), and every edit still there once the cause is gone.
@Suite("sync --watch: full disk and missing passphrase (end to end)")
struct SyncWatchBadInputTests {
    /// Failures in a row the watcher retries before it ends (SyncEngine.Configuration.maxFailures).
    static let maxFailures = 5

    @Test func aFullDiskIsOneLineABoundedRetryAndLosesNothing() throws {
        let disk = try SmallDisk(kilobytes: 4096)
        let folder = TemporaryDirectory("watch-full")
        // The cloud is b's embedded one, on the ordinary disk; only a's home is small.
        let cloud = ["CLOUDSYNC_CLOUD": "sqlite://" + folder.file("cloud.sqlite")]
        let pair = WatcherPair(folder: folder, a: BinaryRunner(home: disk.path, extra: cloud), b: BinaryRunner(home: folder.path))
        #expect(pair.b.run(["store", "sync", "on"], device: "b").status == 0)
        #expect(pair.a.run(["store", "sync"], device: "a").status == 0)
        #expect(pair.a.run(["store", "put", "Note", "a1", "--field", "title=made before the disk filled"], device: "a").status == 0)
        let big = String(repeating: "x", count: 4000)
        for index in 1...40 {
            #expect(pair.b.run(["store", "put", "Note", "b\(index)", "--field", "title=\(big)"], device: "b").status == 0)
        }
        #expect(pair.b.run(["store", "sync"], device: "b").status == 0)
        #expect(disk.fill() > 0)
        // A local edit on the full disk: refused with one line, nothing half-written.
        let refused = pair.a.run(["store", "put", "Note", "a2"], device: "a")
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("is full") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        // The watcher: one line per failure, retried after the backoff, and it ends the fifth time.
        let out = folder.file("watch-a-0.out"), err = folder.file("watch-a-0.err")
        let watcher = BackgroundProcess(pair.a, ["--json", "sync", "--watch"], device: "a", stdout: out, stderr: err)
        let status = watcher.wait(seconds: 60)
        #expect(status == 65, "\(BackgroundProcess.read(err))")
        let failed = pair.events("a").filter { $0["event"] == .string("failed") }
        #expect(failed.count == Self.maxFailures - 1, "bounded: \(failed)")
        #expect(failed.allSatisfy { ($0["reason"]?.stringValue ?? "").contains("is full") }, "\(failed)")
        let lines = BackgroundProcess.read(err).split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("is full"), "one line: \(lines)")
        // Space again: a new watcher pushes a1 and pulls everything.
        disk.free()
        #expect(pair.start("a", run: 1) != nil, "\(pair.stderr("a", run: 1))")
        let expected = (["a1"] + (1...40).map { "b\($0)" }).sorted()
        #expect(pair.waitForNames(expected, on: "a"), "\(pair.names("a"))")
        #expect(pair.b.run(["store", "sync"], device: "b").status == 0)
        #expect(pair.names("b") == expected, "a1 reached the cloud once: \(pair.names("b"))")
        #expect(pair.stop("a") == 0)
    }

    @Test func noPassphraseForEncryptedFieldsIsOneLineAndLosesNothing() throws {
        let home = TemporaryDirectory("watch-passphrase")
        let keyed = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_PASSPHRASE": "correct horse"])
        let bare = BinaryRunner(home: home.path)
        let pair = WatcherPair(folder: home, a: keyed, b: bare)
        #expect(keyed.run(["store", "sync", "on"], device: "a").status == 0)
        // b watches before the account has any encrypted field: it needs no passphrase yet.
        #expect(pair.b.run(["store", "put", "Note", "p1"], device: "b").status == 0)
        let watcher = try #require(pair.start("b"), "\(pair.stderr("b"))")
        let put = keyed.run(["store", "put", "Login", "bank", "--field", "password=Sup3rSecret", "--encrypt", "password"], device: "a")
        #expect(put.status == 0, "\(put.stderr)")
        #expect(keyed.run(["store", "sync"], device: "a").status == 0)
        // b pulls a record it cannot decrypt: one line naming the way out, and it stops (77) at
        // once instead of retrying what cannot succeed without the passphrase.
        #expect(watcher.wait(seconds: 30) == 77, "\(pair.stderr("b"))")
        pair.watchers["b"] = nil
        let lines = pair.stderr("b").split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("CLOUDSYNC_PASSPHRASE"), "one line: \(lines)")
        #expect(pair.b.run(["store", "get", "bank"], device: "b").status == 3, "nothing undecrypted applied")
        // An edit meanwhile; a new watcher without the passphrase stops the same way (its push still goes).
        #expect(pair.b.run(["store", "put", "Note", "p2"], device: "b").status == 0)
        let again = pair.b.run(["--json", "sync", "--watch"], device: "b")
        #expect(again.status == 77, "\(again.stderr)")
        #expect(again.stderr.split(separator: "\n").count == 1 && again.stderr.contains("CLOUDSYNC_PASSPHRASE"), "\(again.stderr)")
        // With the passphrase: everything arrives both ways.
        let withKey = WatcherPair(folder: home, a: keyed, b: keyed)
        #expect(withKey.start("b", run: 2) != nil, "\(withKey.stderr("b", run: 2))")
        #expect(withKey.waitForRecord("bank", on: "b", { $0?["fields"]?["password"]?["value"] == .string("Sup3rSecret") }))
        #expect(keyed.run(["store", "sync"], device: "a").status == 0)
        #expect(withKey.waitForNames(["p1", "p2"], on: "a"), "\(withKey.names("a"))")
        #expect(withKey.stop("b") == 0)
    }
}
