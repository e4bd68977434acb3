import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every command family through the built binary with `--cloud postgres://…` (issue 11).
@Suite("cloudsync on PostgreSQL (end to end)")
struct PostgresCommandTests {
    @Test func zonesRecordsAndChangesWorkAsOnTheEmbeddedCloud() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        let created = cli.run(["zone", "create", "Notes"], device: "laptop")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0, "creating again is fine")
        let saved = cli.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "title=Hello"], device: "laptop")
        #expect(saved.status == 0, "\(saved.stderr)")
        let fetched = cli.run(["record", "get", "n1", "--zone", "Notes", "--json"], device: "phone")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(try fetched.json()["records"]?.arrayValue?.first?["fields"]?["title"]?["value"] == .string("Hello"))
        let first = cli.run(["fetch-changes", "--json"], device: "phone")
        #expect(first.status == 0, "\(first.stderr)")
        let names = try first.ndjson().filter { $0["event"] == .string("changed") }.compactMap { $0["record"]?["recordName"]?.stringValue }
        #expect(names == ["n1"])
        let again = cli.run(["fetch-changes"], device: "phone")
        #expect(again.stdout.contains("Already up to date"), "\(again.stdout)")
        #expect(cli.run(["record", "delete", "n1", "--zone", "Notes"], device: "laptop").status == 0)
        let delta = try cli.run(["fetch-changes", "--json"], device: "phone").ndjson()
        #expect(delta.contains { $0["event"] == .string("deleted") })
        let list = cli.run(["zone", "list"], device: "phone")
        #expect(list.stdout.contains("Notes"), "\(list.stdout)")
    }

    /// `store sync` pushes in modify calls of 400: on PostgreSQL each call's creations, and then
    /// its updates, go to the server as one batch; every record lands exactly once.
    @Test func aStoreSyncOfMoreThanOneBatchLandsEveryRecordOnce() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        #expect(cli.run(["store", "sync", "on"], device: "setup").status == 0)
        let count = 410
        let lines = (0..<count).map { "store put Item i\($0) --field n=\($0)" }.joined(separator: "\n") + "\n"
        let script = cloud.home.write("puts.txt", lines)
        let put = cli.run(["repl", "--bail", script], device: "a")
        #expect(put.status == 0, "\(put.stderr)")
        let pushed = cli.run(["store", "sync"], device: "a")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let fetched = cli.run(["fetch-changes", "--json"], device: "reader")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let names = try fetched.ndjson().filter { $0["event"] == .string("changed") }.compactMap { $0["record"]?["recordName"]?.stringValue }
        #expect(names.count == count)
        #expect(Set(names) == Set((0..<count).map { "i\($0)" }))

        let edits = (0..<count).map { "store put Item i\($0) --field n=edited-\($0)" }.joined(separator: "\n") + "\n"
        _ = cloud.home.write("puts.txt", edits)
        #expect(cli.run(["repl", "--bail", script], device: "a").status == 0)
        let again = cli.run(["store", "sync"], device: "a")
        #expect(again.status == 0, "\(again.stderr)")
        let delta = try cli.run(["fetch-changes", "--json"], device: "reader").ndjson().filter { $0["event"] == .string("changed") }
        #expect(delta.count == count)
        #expect(delta.allSatisfy { $0["record"]?["fields"]?["n"]?["value"]?.stringValue?.hasPrefix("edited-") == true })
    }

    @Test func storeKeyValueAndOTPSyncBetweenDevices() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        #expect(cli.run(["store", "sync", "on"], device: "setup").status == 0)
        #expect(cli.run(["store", "put", "Note", "a1", "--field", "title=From A"], device: "a").status == 0)
        let pushed = cli.run(["store", "sync"], device: "a")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(cli.run(["store", "sync"], device: "b").status == 0)
        let got = cli.run(["store", "get", "a1", "--json"], device: "b")
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.stdout.contains("From A"))

        #expect(cli.run(["kv", "set", "theme", "dark"], device: "a").status == 0)
        #expect(cli.run(["kv", "sync"], device: "a").status == 0)
        #expect(cli.run(["kv", "sync"], device: "b").status == 0)
        #expect(cli.run(["kv", "get", "theme"], device: "b").stdout == "dark\n")

        let added = cli.run(["otp", "add", "Example"], device: "a", stdin: "JBSWY3DPEHPK3PXP\n")
        #expect(added.status == 0, "\(added.stderr)")
        let on = cli.run(["otp", "sync", "on"], device: "a", env: ["CLOUDSYNC_PASSPHRASE": "correct horse battery staple"])
        #expect(on.status == 0, "\(on.stderr)")
        let phone = cli.run(["otp", "sync"], device: "b", env: ["CLOUDSYNC_PASSPHRASE": "correct horse battery staple"])
        #expect(phone.status == 0, "\(phone.stderr)")
        let code = cli.run(["otp", "code", "Example"], device: "b")
        #expect(code.status == 0, "\(code.stderr)")
        #expect(code.stdout.contains { $0.isNumber }, "a code is printed: \(code.stdout)")
    }

    @Test func listenerOnOneProcessWakesForACommitThroughAnother() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "create", "--query", "Note", "--id", "notes"], device: "phone").status == 0)
        let listener = BackgroundCommand(cli, ["--json", "subscribe", "listen", "--timeout", "5"], device: "phone",
                                         stdout: cloud.home.file("listen.out"))
        for i in 1...3 {
            #expect(cli.run(["record", "save", "Note", "n\(i)", "--zone", "Notes"], device: "laptop").status == 0)
            let deadline = monotonicNow() + 30
            while !listener.output.contains("\"n\(i)\""), monotonicNow() < deadline { sleepSeconds(0.01) }
            #expect(listener.output.contains("\"n\(i)\""), "n\(i) printed; stderr: \(listener.errors)")
        }
        #expect(listener.wait(seconds: 30) == 0, "idle timeout after notifications: \(listener.errors)")
    }

    @Test func wrongCredentialsAre77AndAnUnreachableServerIs69InOneLine() throws {
        let cloud = try PostgresTestCloud()
        let wrong = cloud.cli.run(["--cloud", cloud.replacingPassword(with: "not-the-password"), "zone", "list"])
        #expect(wrong.status == 77, "\(wrong.stderr)")
        #expect(wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("not-the-password"))
        let unreachable = cloud.cli.run(["--cloud", "postgres://someone:pw@127.0.0.1:1/nothing?connect_timeout=2", "zone", "list"])
        #expect(unreachable.status == 69, "\(unreachable.stderr)")
        #expect(unreachable.stderr.split(separator: "\n").count == 1, "\(unreachable.stderr)")
    }
}
