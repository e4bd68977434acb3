import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `sync --watch` with `--cloud postgres://` directly (the cluster of scripts/with-postgres, a fresh
/// schema): the other device's watcher is woken by LISTEN/NOTIFY. Never skipped: without the
/// server the test fails.
@Suite("sync --watch over PostgreSQL (end to end)")
struct SyncWatchPostgresTests {
    @Test func anEditCrossesThroughPostgreSQL() throws {
        let base = getenv("CLOUDSYNC_TEST_POSTGRES_URL").map { String(cString: $0) } ?? ""
        try #require(!base.isEmpty, "CLOUDSYNC_TEST_POSTGRES_URL is not set: run the tests under scripts/with-postgres")
        var bytes = [UInt8](repeating: 0, count: 8)
        _ = getentropy(&bytes, bytes.count)
        let cloud = base + (base.contains("?") ? "&" : "?") + "schema=watch_" + bytes.map { String($0, radix: 16) }.joined()
        let home = TemporaryDirectory("watch-postgres")
        let runner = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_CLOUD": cloud])
        let pair = WatcherPair(folder: home, a: runner, b: runner)
        #expect(pair.a.run(["store", "sync", "on"], device: "a").status == 0)
        #expect(pair.start("a") != nil, "\(pair.stderr("a"))")
        #expect(pair.start("b") != nil, "\(pair.stderr("b"))")
        #expect(pair.a.run(["store", "put", "Note", "n1", "--field", "title=through postgres"], device: "a").status == 0)
        #expect(pair.waitForRecord("n1", on: "b") { $0?["fields"]?["title"]?["value"] == .string("through postgres") },
                "\(pair.stderr("b"))")
        #expect(pair.b.run(["store", "put", "Note", "n2"], device: "b").status == 0)
        #expect(pair.waitForNames(["n1", "n2"], on: "a"))
        #expect(pair.stop("a") == 0)
        #expect(pair.stop("b") == 0)
    }
}
