import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("cloudsync serve: two nodes over one PostgreSQL are one cloud (end to end)")
struct ServeStatelessNodesTests {
    /// The test server (`CLOUDSYNC_TEST_POSTGRES_URL`, set by scripts/with-postgres) with a fresh
    /// schema; the test fails, never skips, without it.
    static func freshPostgresCloud() throws -> String {
        guard let base = getenv("CLOUDSYNC_TEST_POSTGRES_URL").map({ String(cString: $0) }), !base.isEmpty else {
            Issue.record("CLOUDSYNC_TEST_POSTGRES_URL is not set: run the tests under scripts/with-postgres (scripts/test does)")
            throw MissingServer()
        }
        var bytes = [UInt8](repeating: 0, count: 8)
        _ = getentropy(&bytes, bytes.count)
        return base + (base.contains("?") ? "&" : "?") + "schema=serve_" + bytes.map { String($0, radix: 16) }.joined()
    }

    struct MissingServer: Error {}

    /// A client of node A saves and a client of node B reads it; a `subscribe listen` through
    /// node B wakes (LISTEN/NOTIFY behind the long poll) for a save made through node A.
    @Test func aSaveThroughOneNodeIsSeenAndHeardThroughTheOther() throws {
        let cloud = try Self.freshPostgresCloud()
        let nodeA = try ServeFixture(cloud: cloud)
        let nodeB = try ServeFixture(cloud: cloud, token: nodeA.token)
        #expect(nodeA.url != nodeB.url)
        let (homeA, a) = nodeA.client("node-a")
        let (homeB, b) = nodeB.client("node-b")
        _ = homeA
        #expect(a.run(["zone", "create", "Notes"], device: "a").status == 0)
        let saved = a.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "title=through A"], device: "a")
        #expect(saved.status == 0, "\(saved.stderr)")
        let fetched = b.run(["record", "get", "n1", "--zone", "Notes", "--json"], device: "b")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.contains("through A"), "\(fetched.stdout)")

        #expect(b.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "b").status == 0)
        let listener = BackgroundProcess(b, ["subscribe", "listen", "--once", "--timeout", "30"], device: "b",
                                         stdout: homeB.file("listen.out"), stderr: homeB.file("listen.err"))
        #expect(BackgroundProcess.waitForText("notifications/poll alice", in: nodeB.serverHome.file("requests.log"), seconds: 20),
                "the listener waits on node B: \(nodeB.log)")
        let second = a.run(["record", "save", "Note", "n2", "--zone", "Notes", "--field", "title=again"], device: "a")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(listener.wait(seconds: 30) == 0, "\(BackgroundProcess.read(homeB.file("listen.err")))")
        #expect(BackgroundProcess.read(homeB.file("listen.out")).contains("database changed (subscription db)"))
        #expect(!nodeA.log.contains("notifications/poll"), "the listener never talked to node A")
        #expect(!nodeB.log.contains("records/modify"), "every save went through node A: \(nodeB.log)")
        #expect(nodeA.stop() == 0)
        #expect(nodeB.stop() == 0)
    }
}

@Suite("cloudsync serve --json (end to end)")
struct ServeJSONTests {
    /// `serve --json` prints `{"url", "cloud"}` instead of `listening on URL`; a PostgreSQL
    /// cloud is shown without its password.
    @Test func jsonNamesTheURLAndTheCloudWithoutItsPassword() throws {
        let cloud = try ServeStatelessNodesTests.freshPostgresCloud()
        let home = TemporaryDirectory("serve-json")
        let runner = BinaryRunner(home: home.path)
        let process = BackgroundProcess(runner, ["serve", "--json", "--listen", "127.0.0.1:0", "--cloud", cloud, "--log", home.file("log")],
                                        device: "server", stdout: home.file("out"), stderr: home.file("err"))
        #expect(BackgroundProcess.waitForText("\n", in: home.file("out"), seconds: 20), "\(BackgroundProcess.read(home.file("err")))")
        kill(process.pid, SIGTERM)
        #expect(process.wait(seconds: 20) == 0)
        let json = try JSONValue.parse(BackgroundProcess.read(home.file("out")))
        #expect(json["url"]?.stringValue?.hasPrefix("http://127.0.0.1:") == true, "\(json)")
        let shown = json["cloud"]?.stringValue ?? ""
        #expect(shown.hasPrefix("postgres"), "\(json)")
        if let at = cloud.firstIndex(of: "@"), let scheme = cloud.firstRange(of: "://"),
           let colon = cloud[scheme.upperBound..<at].firstIndex(of: ":") {
            let password = String(cloud[cloud.index(after: colon)..<at])
            #expect(!password.isEmpty && !shown.contains(password), "no password in \(shown)")
        }
    }
}
