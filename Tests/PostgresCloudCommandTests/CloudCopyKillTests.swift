import CloudSyncCore
import CloudSyncPostgres
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `cloud copy` killed with SIGKILL at random moments (issue 11): the target holds either
/// nothing or the whole copy, never part of it, and a later copy succeeds.
@Suite("cloudsync cloud copy under kill -9")
struct CloudCopyKillTests {
    @Test func aKilledCopyLeavesNothingOrEverything() throws {
        let cloud = try PostgresTestCloud()
        let sqliteURL = "sqlite://" + cloud.home.file("cloud.sqlite")
        let local = BinaryRunner(home: cloud.home.path, extra: ["CLOUDSYNC_CLOUD": sqliteURL])
        #expect(local.run(["zone", "create", "Notes"]).status == 0)
        let script = (1...1500).map { "record save Note r\($0) --zone Notes --field body=\(String(repeating: "x", count: 200))\n" }.joined()
        #expect(local.run(["repl"], stdin: script).status == 0)

        let observer = try PostgresConnection(PostgresURL(cloud.url))
        var outcomes: [String: Int] = [:]
        for trial in 0..<30 {
            let target = cloud.url.replacingSchema(with: cloud.schemaName + "_k\(trial)")
            let name = cloud.schemaName + "_copy\(trial)"
            let copy = local.start(["cloud", "copy", "--from", sqliteURL, "--to", target + "&application_name=" + name])
            // Anywhere from before connecting to after committing.
            sleepSeconds(Double(trial % 10) * 0.04 + Double.random(in: 0..<0.04))
            copy.kill()
            _ = copy.wait()
            // A COMMIT the server had already received still runs after its client died: the
            // outcome is decided once the server has ended that session.
            try waitUntilGone(name, observer)
            let check = local.run(["--json", "cloud", "check"], env: ["CLOUDSYNC_CLOUD": target])
            #expect(check.status == 0, "trial \(trial): \(check.stdout) \(check.stderr)")
            let records = try check.json()["counts"]?["records"]?.int64Value ?? -1
            #expect(records == 0 || records == 1500, "trial \(trial): \(records) records after the kill")
            outcomes[records == 0 ? "nothing" : "everything", default: 0] += 1
            if records == 0 {
                let again = local.run(["cloud", "copy", "--from", sqliteURL, "--to", target])
                #expect(again.status == 0, "trial \(trial): \(again.stderr)")
            }
        }
        print("cloud copy killed 30 times: \(outcomes)")
    }

    /// Waits (up to 10 s) until no server session carries `applicationName`.
    private func waitUntilGone(_ applicationName: String, _ connection: PostgresConnection) throws {
        let deadline = monotonicNow() + 10
        var left: String?
        while monotonicNow() < deadline {
            left = try connection.query("SELECT count(*)::text FROM pg_stat_activity WHERE application_name = $1", [.text(applicationName)]).first?[0].text
            if left == "0" { return }
            sleepSeconds(0.01)
        }
        Issue.record("the server still runs the killed copy's session \(applicationName) after 10 s (\(left ?? "nil") sessions)")
    }
}
