import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `sync --watch` over `cloudsync serve` on 127.0.0.1: each device in a home of its own, woken
/// by the server's long poll; the server stopped and started again on the same port while both
/// devices keep editing.
@Suite("sync --watch over serve (end to end)")
struct SyncWatchServeTests {
    /// A `serve` over one SQLite file, restartable on the port it first got.
    final class Server {
        let home = TemporaryDirectory("watch-serve")
        let runner: BinaryRunner
        let token: String
        var process: BackgroundProcess?
        var url = ""
        var runs = 0

        init() throws {
            runner = BinaryRunner(home: home.path)
            token = SyncWatchServeTests.trimmed(runner.run(["token", "create", "--account", "alice", "--cloud", "sqlite://" + home.file("cloud.sqlite")]).stdout)
            try start(listen: "127.0.0.1:0")
        }

        func start(listen: String) throws {
            runs += 1
            let out = home.file("out-\(runs)")
            process = BackgroundProcess(runner, ["serve", "--listen", listen, "--cloud", "sqlite://" + home.file("cloud.sqlite"),
                                                 "--log", home.file("requests.log")],
                                        device: "server", stdout: out, stderr: home.file("err-\(runs)"))
            guard BackgroundProcess.waitForText("\n", in: out, seconds: 20) else {
                throw CloudError(.networkUnavailable, "serve did not start: " + BackgroundProcess.read(home.file("err-\(runs)")))
            }
            url = String(SyncWatchServeTests.trimmed(BackgroundProcess.read(out)).dropFirst("listening on ".count))
        }

        func stop() -> Int32? {
            guard let process else { return nil }
            kill(process.pid, SIGTERM)
            self.process = nil
            return process.wait(seconds: 20)
        }

        /// Starts again on the same host and port.
        func restart() throws {
            let hostPort = url.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            try start(listen: hostPort)
        }

        func client(_ name: String) -> BinaryRunner {
            BinaryRunner(home: TemporaryDirectory("watch-serve-\(name)").path, extra: ["CLOUDSYNC_CLOUD": url, "CLOUDSYNC_TOKEN": token])
        }

        deinit { _ = stop() }
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    @Test func editsCrossAndAnOutageLosesNothing() throws {
        let server = try Server()
        let folder = TemporaryDirectory("watch-serve-out")
        let pair = WatcherPair(folder: folder, a: server.client("a"), b: server.client("b"))
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        #expect(pair.start("a") != nil, "\(pair.stderr("a"))")
        #expect(pair.start("b") != nil, "\(pair.stderr("b"))")
        #expect(pair.a.run(["store", "put", "Note", "n1", "--field", "title=hello"], device: "a").status == 0)
        #expect(pair.waitForRecord("n1", on: "b"), "a's edit reached b over serve: \(pair.stderr("b"))")

        // The server goes away for 10 s (issue 27) while both devices keep editing, both of them n1.
        #expect(server.stop() == 0)
        let down = BackgroundProcess.now()
        var all = ["n1"]
        var index = 0
        while BackgroundProcess.now() - down < 10 {
            index += 1
            #expect(pair.a.run(["store", "put", "Note", "a\(index)"], device: "a").status == 0)
            #expect(pair.b.run(["store", "put", "Note", "b\(index)"], device: "b").status == 0)
            all += ["a\(index)", "b\(index)"]
            if index == 2 {
                #expect(pair.a.run(["store", "put", "Note", "n1", "--field", "title=offline edit on a"], device: "a").status == 0)
                #expect(pair.b.run(["store", "put", "Note", "n1", "--field", "title=offline edit"], device: "b").status == 0)
            }
            sleepSeconds(0.5)
        }
        all.sort()
        #expect(BackgroundProcess.waitForText("\"event\":\"offline\"", in: folder.file("watch-a-0.out"), seconds: 20))
        #expect(BackgroundProcess.waitForText("\"event\":\"offline\"", in: folder.file("watch-b-0.out"), seconds: 20))
        // Back on the same port: with CLOUDSYNC_SYNC_BACKOFF=0.2,1 (WatcherPair) a watcher retries
        // at most about 1 s apart, so both converge in a few seconds of the restart (the issue's
        // figure is 5 s; it is printed, and the assertion leaves room for a loaded machine):
        // every edit on both devices, each record once (`names` keeps repeats).
        try server.restart()
        let restarted = BackgroundProcess.now()
        #expect(pair.waitForNames(all, on: "a", seconds: 30), "after the restart: \(pair.names("a")) \(pair.stderr("a"))")
        #expect(pair.waitForNames(all, on: "b", seconds: 30), "after the restart: \(pair.names("b")) \(pair.stderr("b"))")
        print("sync --watch outage: both devices converged \(BackgroundProcess.now() - restarted) s after serve came back (figure: 5 s)")
        // b's edit of n1 is the newer one: it wins on both, and the conflict is logged.
        #expect(pair.waitForRecord("n1", on: "a", seconds: 30, { $0?["fields"]?["title"]?["value"] == .string("offline edit") }))
        #expect(pair.waitForRecord("n1", on: "b", seconds: 30, { $0?["fields"]?["title"]?["value"] == .string("offline edit") }))
        let logged = ["a", "b"].map { device in
            (try? pair.runner(device).run(["store", "conflicts", "--json"], device: device).json())?["conflicts"]?.arrayValue ?? []
        }.joined()
        #expect(logged.contains { $0["recordName"] == .string("n1") }, "the n1 conflict is in a conflict log: \(Array(logged))")
        #expect(pair.events("a").contains { $0["event"] == .string("online") })
        #expect(pair.stop("a") == 0)
        #expect(pair.stop("b") == 0)
        for device in ["a", "b"] {
            #expect(try pair.runner(device).run(["store", "status", "--json"], device: device).json()["pending"] == .int(0))
        }
    }

    @Test func subscribeListenRetryWaitsForTheServerAndResumes() throws {
        let server = try Server()
        let folder = TemporaryDirectory("watch-serve-listen")
        var desk = server.client("desk"), laptop = server.client("laptop")
        desk.environment["CLOUDSYNC_SYNC_BACKOFF"] = "0.2,1"
        laptop.environment["CLOUDSYNC_SYNC_BACKOFF"] = "0.2,1"
        #expect(laptop.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(desk.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "desk").status == 0)
        let out = folder.file("listen.out"), err = folder.file("listen.err")
        let listener = BackgroundProcess(desk, ["--json", "subscribe", "listen", "--retry", "--once"], device: "desk",
                                         stdout: out, stderr: err)
        sleepSeconds(1)
        #expect(server.stop() == 0)
        #expect(BackgroundProcess.waitForText("offline: ", in: err, seconds: 20), "\(BackgroundProcess.read(err))")
        sleepSeconds(1)
        try server.restart()
        #expect(laptop.run(["record", "save", "Note", "n1", "--zone", "Notes"], device: "laptop").status == 0)
        #expect(listener.wait(seconds: 30) == 0, "\(BackgroundProcess.read(err))")
        #expect(BackgroundProcess.read(err).contains("online again after"), "\(BackgroundProcess.read(err))")
        #expect(BackgroundProcess.read(out).contains("\"notificationType\""), "\(BackgroundProcess.read(out))")
        // Without --retry an unreachable server still exits 69.
        #expect(server.stop() == 0)
        #expect(desk.run(["subscribe", "listen", "--once", "--timeout", "1"], device: "desk").status == 69)
    }

    @Test func aRevokedTokenStopsTheWatcherWithOneLine() throws {
        let server = try Server()
        let folder = TemporaryDirectory("watch-serve-revoked")
        let pair = WatcherPair(folder: folder, a: server.client("a"), b: server.client("b"))
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        let watcher = try #require(pair.start("a"), "\(pair.stderr("a"))")
        let cloud = "sqlite://" + server.home.file("cloud.sqlite")
        let listed = try server.runner.run(["token", "list", "--json", "--cloud", cloud]).json()["tokens"]?.arrayValue ?? []
        let id = try #require(listed.first?["id"].map { $0.stringValue ?? $0.int64Value.map(String.init) ?? "" })
        let revoke = server.runner.run(["token", "revoke", id, "--cloud", cloud])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        // The next cycle (after a local edit) meets the refused credential.
        #expect(pair.a.run(["store", "put", "Note", "n1"], device: "a").status == 0)
        #expect(watcher.wait(seconds: 30) == 77, "\(pair.stderr("a"))")
        pair.watchers["a"] = nil
        #expect(pair.stderr("a").split(separator: "\n").count == 1, "\(pair.stderr("a"))")
    }
}
