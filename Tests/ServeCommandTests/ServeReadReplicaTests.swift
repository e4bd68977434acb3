import CloudSyncCore
import CloudSyncPostgres
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `serve --read-replica` (issue 28) against the real streaming replica of `scripts/with-postgres`
/// (`CLOUDSYNC_TEST_POSTGRES_REPLICA_URL`; missing, these tests fail): read-only calls carrying
/// an `X-CloudSync-Position` go to the replica only when it has replayed that far; a lagging
/// (replay paused), unreachable or killed replica leaves them to the primary, never a stale read.
/// One after another: two tests pause the one replica's replay.
@Suite("cloudsync serve --read-replica (end to end, real streaming replica)", .serialized)
struct ServeReadReplicaTests {
    /// The replica URL naming the same `?schema=` as `primary`.
    static func replicaURL(of primary: String) throws -> String {
        guard let base = getenv("CLOUDSYNC_TEST_POSTGRES_REPLICA_URL").map({ String(cString: $0) }), !base.isEmpty else {
            Issue.record("CLOUDSYNC_TEST_POSTGRES_REPLICA_URL is not set: run the tests under scripts/with-postgres (scripts/test does)")
            throw ServeStatelessNodesTests.MissingServer()
        }
        let schema = primary.firstIndex(of: "?").map { String(primary[$0...]) } ?? ""
        return base + schema
    }

    /// One Web Services call by curl: status, the position header (nil when absent) and body.
    struct Reply {
        var status: Int
        var position: String?
        var body: String
    }

    static func call(_ fixture: ServeFixture, _ endpoint: String, body: String, position: String?) -> Reply {
        var arguments = ["-s", "-D", "-", "-H", "Authorization: Bearer \(fixture.token)", "-H", "Content-Type: application/json",
                         "--data-binary", body]
        if let position { arguments += ["-H", "X-CloudSync-Position: \(position)"] }
        arguments.append(fixture.url + "/database/1/iCloud.com.example.App/development/private/" + endpoint)
        let raw = ProcessSpawner.run("/usr/bin/curl", arguments, environment: [:]).stdout
        let split = raw.firstRange(of: "\r\n\r\n")
        let head = split.map { String(raw[..<$0.lowerBound]) } ?? raw
        let lines = head.split(separator: "\r\n" as Character)
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let position = lines.first { $0.lowercased().hasPrefix("x-cloudsync-position:") }
            .map { trimmed(String($0.dropFirst("x-cloudsync-position:".count))) }
        return Reply(status: status, position: position, body: split.map { String(raw[$0.upperBound...]) } ?? "")
    }

    /// The WAL offset of a `HIGH/LOW` position.
    static func offset(_ text: String?) -> UInt64 {
        let halves = (text ?? "").split(separator: "/")
        guard halves.count == 2, let high = UInt64(halves[0], radix: 16), let low = UInt64(halves[1], radix: 16) else { return 0 }
        return high << 32 | low
    }

    /// A connection to the replica as the test role (which may pause and resume its replay).
    static func replica(_ url: String) throws -> PostgresConnection {
        try PostgresConnection(try PostgresURL(url))
    }

    static func replayed(_ connection: PostgresConnection) throws -> UInt64 {
        UInt64(try connection.query("SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint").first?[0].int64 ?? 0)
    }

    /// Waits (at most 20 s) until the replica has replayed `offset`.
    static func waitForReplay(_ connection: PostgresConnection, to offset: UInt64) throws -> Bool {
        let deadline = BackgroundProcess.now() + 20
        while BackgroundProcess.now() < deadline {
            if try replayed(connection) >= offset { return true }
            usleep(50_000)
        }
        return false
    }

    /// `cloudsync_replica_reads_total{served_by="replica"}` and the fallbacks, from GET /metrics.
    static func metric(_ fixture: ServeFixture, admin: String, _ name: String) -> Int {
        let text = ProcessSpawner.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(admin)", fixture.url + "/metrics"],
                                      environment: [:]).stdout
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
    }

    /// Queries r1 (every answer must have it) until the replica has served more than `count`
    /// reads, at most 20 s; whether it did.
    static func readUntilTheReplicaServes(_ fixture: ServeFixture, admin: String, position: String, moreThan count: Int) -> Bool {
        let deadline = BackgroundProcess.now() + 20
        while BackgroundProcess.now() < deadline {
            let read = call(fixture, "records/query", body: query, position: position)
            #expect(read.status == 200 && read.body.contains("\"r1\""), "\(read)")
            if metric(fixture, admin: admin, servedByReplica) > count { return true }
            usleep(150_000)
        }
        return false
    }

    static let servedByReplica = #"cloudsync_replica_reads_total{served_by="replica"}"#
    static let behind = #"cloudsync_replica_fallbacks_total{reason="behind"}"#
    static let failed = #"cloudsync_replica_fallbacks_total{reason="failed"}"#

    static func lookup(_ name: String) -> String { #"{"zoneID":{"zoneName":"Notes"},"records":[{"recordName":"\#(name)"}]}"# }
    static let query = #"{"zoneID":{"zoneName":"Notes"},"query":{"recordType":"Note"}}"#
    static func changes(_ token: String?) -> String {
        token.map { #"{"zoneID":{"zoneName":"Notes"},"syncToken":"\#($0)"}"# } ?? #"{"zoneID":{"zoneName":"Notes"}}"#
    }

    static func syncToken(_ body: String) -> String? {
        (try? JSONValue.parse(body))?["syncToken"]?.stringValue
    }

    @Test func aLaggingReplicaNeverServesAStaleReadAndServesAgainOnceItCatchesUp() throws {
        let cloud = try ServeStatelessNodesTests.freshPostgresCloud()
        let replicaURL = try Self.replicaURL(of: cloud)
        let fixture = try ServeFixture(serveArguments: ["--read-replica", replicaURL], cloud: cloud)
        let admin = trimmed(fixture.server.run(["token", "create", "--account", "root", "--admin", "--cloud", cloud]).stdout)
        let replica = try Self.replica(replicaURL)
        let (_, client) = fixture.client("lag")
        #expect(client.run(["zone", "create", "Notes"], device: "a").status == 0)
        #expect(client.run(["record", "save", "Note", "r1", "--zone", "Notes", "--field", "title=one"], device: "a").status == 0)

        // No position: the primary answers, and names its position.
        let first = Self.call(fixture, "records/changes", body: Self.changes(nil), position: nil)
        #expect(first.status == 200 && first.body.contains("\"r1\""), "\(first)")
        let seenFirst = try #require(first.position)
        #expect(Self.offset(seenFirst) > 0)
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 0)
        #expect(try Self.waitForReplay(replica, to: Self.offset(seenFirst)))

        // Caught up: the replica answers a call carrying that position.
        let fromReplica = Self.call(fixture, "records/query", body: Self.query, position: seenFirst)
        #expect(fromReplica.status == 200 && fromReplica.body.contains("\"r1\""), "\(fromReplica)")
        #expect(Self.offset(fromReplica.position) >= Self.offset(seenFirst))
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 1)
        let token1 = try #require(Self.syncToken(first.body))

        // The replica stops replaying; r2 is saved and seen (a reply from the primary after it).
        _ = try replica.execute("SELECT pg_wal_replay_pause()")
        defer { _ = try? replica.execute("SELECT pg_wal_replay_resume()") }
        #expect(client.run(["record", "save", "Note", "r2", "--zone", "Notes", "--field", "title=two"], device: "a").status == 0)
        // (A call without a position, as a client that made the save in another process has.)
        let seen = Self.call(fixture, "zones/list", body: "{}", position: nil)
        let seenSecond = try #require(seen.position)
        #expect(Self.offset(seenSecond) > Self.offset(seenFirst))
        #expect(try Self.replayed(replica) < Self.offset(seenSecond), "the replica was to be paused before r2")

        // Whoever has seen r2 reads it (the primary answers), by every read call, and no token goes back.
        let lookup = Self.call(fixture, "records/lookup", body: Self.lookup("r2"), position: seenSecond)
        #expect(lookup.status == 200 && lookup.body.contains("\"title\"") && !lookup.body.contains("NOT_FOUND"), "\(lookup)")
        let query = Self.call(fixture, "records/query", body: Self.query, position: seenSecond)
        #expect(query.body.contains("\"r2\""), "\(query)")
        let changes = Self.call(fixture, "records/changes", body: Self.changes(token1), position: seenSecond)
        #expect(changes.status == 200 && changes.body.contains("\"r2\""), "\(changes)")
        #expect(Self.syncToken(changes.body) != token1)
        #expect(Self.offset(changes.position) >= Self.offset(seenSecond))
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 1)
        #expect(Self.metric(fixture, admin: admin, Self.behind) >= 3)

        // A caller that has seen only r1 may still read from the paused replica (r2 not there yet).
        let older = Self.call(fixture, "records/lookup", body: Self.lookup("r1"), position: seenFirst)
        #expect(older.status == 200 && older.body.contains("\"title\""), "\(older)")
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 2)
        // A client that keeps only change tokens (no header) carries the position in them: the
        // older token is read from the paused replica, the newer one from the primary.
        #expect(token1.hasSuffix("." + String(Self.offset(seenFirst), radix: 16, uppercase: true)), "\(token1)")
        let byOldToken = Self.call(fixture, "records/changes", body: Self.changes(token1), position: nil)
        #expect(byOldToken.status == 200 && !byOldToken.body.contains("\"r2\""), "\(byOldToken)")
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 3)
        let token2 = try #require(Self.syncToken(changes.body))
        let byNewToken = Self.call(fixture, "records/changes", body: Self.changes(token2), position: nil)
        #expect(byNewToken.status == 200 && !byNewToken.body.contains("\"r1\"") && !byNewToken.body.contains("\"r2\""), "\(byNewToken)")
        #expect(Self.offset(byNewToken.position) >= Self.offset(seenSecond))
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 3)

        // The client sends back what it saw: in one session (a piped REPL), the reads after the
        // save carry its position, which the paused replica has not replayed (counted "behind"),
        // and see the record saved in the same session.
        let behindBefore = Self.metric(fixture, admin: admin, Self.behind)
        let session = client.run(["repl"], device: "a",
                                 stdin: "record save Note r3 --zone Notes --field title=three\nrecord query Note --zone Notes --json\n"
                                        + "record get r3 --zone Notes --json\n")
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stdout.contains("\"r3\"") && session.stdout.contains("three"), "\(session.stdout)")
        #expect(Self.metric(fixture, admin: admin, Self.behind) >= behindBefore + 2)
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 3)

        // Replay resumes: the replica serves the caller that has seen r2, with r2.
        _ = try replica.execute("SELECT pg_wal_replay_resume()")
        #expect(try Self.waitForReplay(replica, to: Self.offset(seenSecond)))
        let caughtUp = Self.call(fixture, "records/changes", body: Self.changes(token1), position: seenSecond)
        #expect(caughtUp.status == 200 && caughtUp.body.contains("\"r2\""), "\(caughtUp)")
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 4)

        #expect(fixture.stop() == 0)
        #expect(fixture.log.contains("read replicas served"), "\(fixture.log)")
    }

    /// A serve started while the replica has not replayed the tables the primary just made (its
    /// replay paused before the serve made them, as a replica copied before the first node
    /// started is): no warning, reads go to the primary (counted behind), and once the replica
    /// has replayed the tables it serves the reads.
    @Test func aReplicaWithoutTheTablesYetIsBehindNotAFailureAndServesOnceItHasThem() throws {
        let cloud = try ServeStatelessNodesTests.freshPostgresCloud()
        let replicaURL = try Self.replicaURL(of: cloud)
        let replica = try Self.replica(replicaURL)
        _ = try replica.execute("SELECT pg_wal_replay_pause()")
        defer { _ = try? replica.execute("SELECT pg_wal_replay_resume()") }
        let fixture = try ServeFixture(serveArguments: ["--read-replica", replicaURL], cloud: cloud)
        let admin = trimmed(fixture.server.run(["token", "create", "--account", "root", "--admin", "--cloud", cloud]).stdout)
        let (_, client) = fixture.client("early")
        #expect(client.run(["zone", "create", "Notes"], device: "a").status == 0)
        #expect(client.run(["record", "save", "Note", "r1", "--zone", "Notes", "--field", "title=one"], device: "a").status == 0)
        let seen = try #require(Self.call(fixture, "zones/list", body: "{}", position: nil).position)
        #expect(try Self.replayed(replica) < Self.offset(seen), "the replica was to be paused before the tables were made")

        let early = Self.call(fixture, "records/query", body: Self.query, position: seen)
        #expect(early.status == 200 && early.body.contains("\"r1\""), "\(early)")
        #expect(Self.metric(fixture, admin: admin, Self.behind) >= 1)
        #expect(Self.metric(fixture, admin: admin, Self.failed) == 0)
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 0)

        _ = try replica.execute("SELECT pg_wal_replay_resume()")
        #expect(try Self.waitForReplay(replica, to: Self.offset(seen)))
        // The open is tried again every 0.25 s: within a few reads the replica serves.
        #expect(Self.readUntilTheReplicaServes(fixture, admin: admin, position: seen, moreThan: 0),
                "the replica serves once it has the tables")
        #expect(Self.metric(fixture, admin: admin, Self.failed) == 0)
        #expect(fixture.stop() == 0)
        let errors = BackgroundProcess.read(fixture.serverHome.file("err"))
        #expect(!errors.contains("warning:"), "no warning for a replica that has not replayed the tables yet: \(errors)")
    }

    @Test func anUnreachableReplicaAtStartIsAWarningAndAMalformedOneAUsageError() throws {
        let cloud = try ServeStatelessNodesTests.freshPostgresCloud()
        let fixture = try ServeFixture(serveArguments: ["--read-replica", "postgres://nobody:secret@127.0.0.1:1/none"], cloud: cloud)
        let (_, client) = fixture.client("unreachable")
        #expect(client.run(["zone", "create", "Notes"], device: "a").status == 0)
        #expect(client.run(["record", "save", "Note", "r1", "--zone", "Notes", "--field", "title=one"], device: "a").status == 0)
        let seen = Self.call(fixture, "zones/list", body: "{}", position: nil)
        let read = Self.call(fixture, "records/query", body: Self.query, position: seen.position)
        #expect(read.status == 200 && read.body.contains("\"r1\""), "\(read)")
        #expect(fixture.stop() == 0)
        let warnings = BackgroundProcess.read(fixture.serverHome.file("err")).split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("127.0.0.1:1") == true && warnings.first?.contains("secret") == false, "\(warnings)")

        let home = TemporaryDirectory("replica-usage")
        let runner = BinaryRunner(home: home.path)
        for (cloudURL, replica) in [(cloud, "mysql://x@127.0.0.1/db"), (cloud, "postgres://[::1/db"),
                                    ("sqlite://" + home.file("c.sqlite"), try Self.replicaURL(of: cloud))] {
            let result = runner.run(["serve", "--listen", "127.0.0.1:0", "--cloud", cloudURL, "--read-replica", replica])
            #expect(result.status == 64, "\(replica): \(result.status) \(result.stderr)")
        }
    }

    @Test func aReplicaKilledMidRunLeavesReadsToThePrimaryWithoutAnErrorAndIsUsedAgainWhenBack() throws {
        let cloud = try ServeStatelessNodesTests.freshPostgresCloud()
        let replicaURL = try Self.replicaURL(of: cloud)
        let folder = TemporaryDirectory("replica-kill")
        let (target, replacing) = ServeStoreOutageTests.hostPort(of: replicaURL)
        let (forwarder, port) = try ServeStoreOutageTests.startForwarder(folder, port: 0, to: target)
        let fixture = try ServeFixture(serveArguments: ["--read-replica", replacing("127.0.0.1:\(port)")], cloud: cloud)
        let admin = trimmed(fixture.server.run(["token", "create", "--account", "root", "--admin", "--cloud", cloud]).stdout)
        let replica = try Self.replica(replicaURL)
        let (_, client) = fixture.client("kill")
        #expect(client.run(["zone", "create", "Notes"], device: "a").status == 0)
        #expect(client.run(["record", "save", "Note", "r1", "--zone", "Notes", "--field", "title=one"], device: "a").status == 0)
        let seen = try #require(Self.call(fixture, "zones/list", body: "{}", position: nil).position)
        #expect(try Self.waitForReplay(replica, to: Self.offset(seen)))
        #expect(Self.call(fixture, "records/query", body: Self.query, position: seen).body.contains("\"r1\""))
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 1)

        forwarder.kill()
        forwarder.wait()
        for _ in 0..<5 {
            let read = Self.call(fixture, "records/query", body: Self.query, position: seen)
            #expect(read.status == 200 && read.body.contains("\"r1\""), "\(read)")
        }
        #expect(Self.metric(fixture, admin: admin, Self.servedByReplica) == 1)
        #expect(Self.metric(fixture, admin: admin, Self.failed) >= 1)

        // Back on the same port: within the backoff the replica serves again.
        let (second, _) = try ServeStoreOutageTests.startForwarder(folder, port: port, to: target)
        defer { second.kill(); second.wait() }
        #expect(Self.readUntilTheReplicaServes(fixture, admin: admin, position: seen, moreThan: 1))
        #expect(fixture.stop() == 0)
        let errors = BackgroundProcess.read(fixture.serverHome.file("err"))
        #expect(errors.contains("failed") && errors.contains("answers again"), "\(errors)")
    }
}
