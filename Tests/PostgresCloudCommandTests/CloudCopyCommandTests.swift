import CloudSyncCore
import TestSupport
import Testing

/// `cloudsync cloud copy` through the built binary: SQLite to PostgreSQL and back, devices
/// keeping their tokens, a non-empty target refused without --force.
@Suite("cloudsync cloud copy (end to end)")
struct CloudCopyCommandTests {
    @Test func aCloudMovesToPostgreSQLAndBackWithDevicesKeepingTheirTokens() throws {
        let cloud = try PostgresTestCloud()
        let sqliteURL = "sqlite://" + cloud.home.file("cloud.sqlite")
        let local = BinaryRunner(home: cloud.home.path, extra: ["CLOUDSYNC_CLOUD": sqliteURL])
        let server = cloud.cli
        #expect(local.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        for name in ["a", "b", "c"] {
            #expect(local.run(["record", "save", "Note", name, "--zone", "Notes", "--field", "t=\(name)"], device: "laptop").status == 0)
        }
        #expect(local.run(["record", "delete", "c", "--zone", "Notes"], device: "laptop").status == 0)
        #expect(local.run(["subscribe", "create", "--query", "Note", "--id", "notes"], device: "phone").status == 0)
        #expect(local.run(["kv", "set", "theme", "dark"], device: "laptop").status == 0)
        #expect(local.run(["kv", "sync"], device: "laptop").status == 0)
        #expect(local.run(["fetch-changes"], device: "phone").status == 0)

        let copied = local.run(["--json", "cloud", "copy", "--from", sqliteURL, "--to", cloud.url])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try copied.json()["counts"]?["records"] == .int(3), "the tombstone too")

        // The phone keeps its token: nothing new, then later changes arrive normally.
        let next = server.run(["fetch-changes"], device: "phone")
        #expect(next.status == 0 && next.stdout.contains("Already up to date"), "\(next.stdout) \(next.stderr)")
        #expect(server.run(["zone", "create", "Later"], device: "laptop").status == 0, "new IDs follow the copied ones")
        #expect(server.run(["record", "save", "Note", "d", "--zone", "Notes"], device: "laptop").status == 0)
        let later = try server.run(["fetch-changes", "--json"], device: "phone").ndjson()
        #expect(later.filter { $0["event"] == .string("changed") }.compactMap { $0["record"]?["recordName"]?.stringValue } == ["d"])
        #expect(server.run(["kv", "get", "theme"], device: "laptop").stdout == "dark\n")
        #expect(server.run(["cloud", "check"]).status == 0)

        // A non-empty target is refused without --force; with it, the copy goes back.
        let refused = server.run(["cloud", "copy", "--from", cloud.url, "--to", sqliteURL])
        #expect(refused.status == 4 && refused.stderr.contains("--force"), "\(refused.stderr)")
        let back = server.run(["cloud", "copy", "--from", cloud.url, "--to", sqliteURL, "--force"])
        #expect(back.status == 0, "\(back.stderr)")
        let again = local.run(["fetch-changes"], device: "phone")
        #expect(again.stdout.contains("Already up to date"), "\(again.stdout) \(again.stderr)")
        #expect(local.run(["record", "get", "d", "--zone", "Notes"], device: "phone").status == 0)
        #expect(local.run(["cloud", "check"]).status == 0)
    }
}
