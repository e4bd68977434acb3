import CloudSyncCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Two devices of one account, each with a `sync --watch --json` running in the background,
/// over one cloud (the embedded file of `runner`'s home, or a server the runners point at).
final class WatcherPair {
    let folder: TemporaryDirectory
    let a: BinaryRunner
    let b: BinaryRunner
    var watchers: [String: BackgroundProcess] = [:]
    /// Short offline waits, so an outage test does not sit out a 60 s backoff.
    static let testBackoff = ["CLOUDSYNC_SYNC_BACKOFF": "0.2,1"]

    init(folder: TemporaryDirectory, a: BinaryRunner, b: BinaryRunner) {
        self.folder = folder
        var a = a, b = b
        for (key, value) in Self.testBackoff { a.environment[key] = value; b.environment[key] = value }
        self.a = a
        self.b = b
    }

    func runner(_ device: String) -> BinaryRunner { device == "a" ? a : b }

    /// Starts the watcher of `device` and waits for its first cycle (its first `cycle` event).
    @discardableResult
    func start(_ device: String, run: Int = 0) -> BackgroundProcess? {
        let out = folder.file("watch-\(device)-\(run).out"), err = folder.file("watch-\(device)-\(run).err")
        let process = BackgroundProcess(runner(device), ["--json", "sync", "--watch"], device: device, stdout: out, stderr: err)
        watchers[device] = process
        guard BackgroundProcess.waitForText("\"event\":\"cycle\"", in: out, seconds: 20) else { return nil }
        return process
    }

    /// SIGTERM to the watcher of `device`; its exit status.
    func stop(_ device: String) -> Int32? {
        guard let process = watchers.removeValue(forKey: device) else { return nil }
        kill(process.pid, SIGTERM)
        return process.wait(seconds: 20)
    }

    func stopAll() {
        for device in Array(watchers.keys) { _ = stop(device) }
    }

    /// Polls `store get NAME --json` on `device` until `matches` holds for it, for `seconds`.
    func waitForRecord(_ name: String, on device: String, seconds: Double = 20,
                       _ matches: (JSONValue?) -> Bool = { $0 != nil }) -> Bool {
        let deadline = BackgroundProcess.now() + seconds
        while BackgroundProcess.now() < deadline {
            let result = runner(device).run(["store", "get", name, "--json"], device: device)
            let record = result.status == 0 ? (try? result.json())?["records"]?.arrayValue?.first : nil
            if matches(record) { return true }
            sleepSeconds(0.05)
        }
        return false
    }

    /// The record names the local store of `device` holds, sorted, with repeats kept.
    func names(_ device: String, type: String = "Note") -> [String] {
        let result = runner(device).run(["store", "query", type, "--json", "--limit", "10000"], device: device)
        return ((try? result.json())?["records"]?.arrayValue ?? []).compactMap { $0["recordName"]?.stringValue }.sorted()
    }

    /// Waits until `device` holds exactly `expected` records of type Note.
    func waitForNames(_ expected: [String], on device: String, seconds: Double = 30) -> Bool {
        let deadline = BackgroundProcess.now() + seconds
        while BackgroundProcess.now() < deadline {
            if names(device) == expected { return true }
            sleepSeconds(0.1)
        }
        return false
    }

    /// The events a watcher printed in run `run`.
    func events(_ device: String, run: Int = 0) -> [JSONValue] {
        BackgroundProcess.read(folder.file("watch-\(device)-\(run).out")).split(separator: "\n")
            .compactMap { try? JSONValue.parse(String($0)) }
    }

    func stderr(_ device: String, run: Int = 0) -> String {
        BackgroundProcess.read(folder.file("watch-\(device)-\(run).err"))
    }

    deinit { stopAll() }
}
