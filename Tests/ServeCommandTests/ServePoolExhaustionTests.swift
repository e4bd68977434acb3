import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("cloudsync serve: every PostgreSQL connection busy (503 TRY_AGAIN_LATER, no deadlock)")
struct ServePoolExhaustionTests {
    /// `psql` on the test server, in the cloud's schema (the `?schema=` of `cloud`).
    static func psql(_ cloud: String, _ arguments: [String]) -> (String, [String]) {
        let parts = cloud.split(separator: "?", maxSplits: 1)
        let schema = parts.count > 1 ? String(parts[1].split(separator: "=").last ?? "") : "public"
        return ("/usr/bin/psql", [String(parts[0]), "-X", "-q", "-t", "-A", "-c", "SET search_path TO \(schema)"] + arguments)
    }

    /// `serve --db-connections 1` over PostgreSQL. Another session holds the `databases` rows
    /// locked for a few seconds: alice's save takes the one connection and waits on its row;
    /// bob's read then finds no connection for the pool's wait (2 s) and is answered 503
    /// `TRY_AGAIN_LATER` with `retryAfter` and Retry-After. A client retries it through once the
    /// lock is gone, alice's save completes, and the server still answers (no deadlock).
    @Test func aRequestFindingEveryConnectionBusyIs503AndTheClientsRetryFinishes() throws {
        let cloud = try ServeStatelessNodesTests.freshPostgresCloud()
        let fixture = try ServeFixture(serveArguments: ["--db-connections", "1"], cloud: cloud)
        let bobToken = trimmed(fixture.server.run(["token", "create", "--account", "bob", "--cloud", cloud]).stdout)
        let (aliceHome, alice) = fixture.client("pool-alice")
        let (_, bob) = fixture.client("pool-bob", token: bobToken)
        #expect(alice.run(["zone", "create", "Notes"], device: "a").status == 0)

        let folder = TemporaryDirectory("serve-pool")
        let (psql, base) = Self.psql(cloud, [])
        let holder = BinaryRunner(home: folder.path, executable: psql)
            .start(base + ["-o", folder.file("lock.out"), "-c", "BEGIN", "-c", "SELECT db_id FROM databases FOR UPDATE",
                           "-c", "SELECT 'locked'", "-c", "SELECT pg_sleep(6)", "-c", "COMMIT"])
        #expect(BackgroundProcess.waitForText("locked", in: folder.file("lock.out"), seconds: 20), "the lock is held")

        let save = BackgroundProcess(alice, ["record", "save", "Note", "n1", "--zone", "Notes", "--field", "title=waited"],
                                     device: "a", stdout: aliceHome.file("save.out"), stderr: aliceHome.file("save.err"))
        // Wait until alice's save holds the one connection, waiting on the row lock.
        let (_, waiting) = Self.psql(cloud, ["-c", "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"])
        var blocked = false
        for _ in 0..<200 where !blocked {
            blocked = trimmed(ProcessSpawner.run(psql, waiting, environment: [:]).stdout) == "1"
            if !blocked { usleep(50_000) }
        }
        #expect(blocked, "alice's save waits on the row lock")

        let raw = ProcessSpawner.run("/usr/bin/curl", ["-s", "-D", "-", "-X", "POST", "-d", "{}", "-H", "Authorization: Bearer \(bobToken)",
                                                       "-w", "\n%{http_code}",
                                                       fixture.url + "/database/1/iCloud.com.example.App/development/private/zones/list"],
                                     environment: [:])
        #expect(raw.stdout.hasSuffix("\n503"), "\(raw.stdout)")
        #expect(raw.stdout.contains("\"serverErrorCode\":\"TRY_AGAIN_LATER\""), "\(raw.stdout)")
        #expect(raw.stdout.contains("\"retryAfter\":1"), "\(raw.stdout)")
        #expect(raw.stdout.lowercased().contains("retry-after: 1"), "\(raw.stdout)")
        #expect(raw.stdout.contains("connections"), "the reason says why: \(raw.stdout)")

        // The client retries 503 (honouring Retry-After) and finishes once the lock is gone.
        let listed = bob.run(["--account", "bob", "zone", "list"], device: "b")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(save.wait(seconds: 60) == 0, "\(BackgroundProcess.read(aliceHome.file("save.err")))")
        #expect(holder.wait() == 0)
        let read = alice.run(["record", "get", "n1", "--zone", "Notes", "--json"], device: "a")
        #expect(read.status == 0 && read.stdout.contains("waited"), "\(read.stderr)")
        // Refused while the token was checked (that needs a connection too), so no account yet.
        #expect(fixture.log.contains("zones/list - 503 "), "\(fixture.log)")
        #expect(fixture.log.contains("zones/list bob 200"), "\(fixture.log)")
        #expect(fixture.stop() == 0)
    }
}
