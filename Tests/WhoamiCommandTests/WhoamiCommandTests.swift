import CloudSyncCore
import TestSupport
import Testing

/// Issue 15: `cloudsync whoami` through the built binary.
@Suite("whoami (end to end)")
struct WhoamiCommandTests {
    let home = TemporaryDirectory("whoami")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func showsAccountDeviceContainerCloudAndSync() throws {
        #expect(cli.run(["cloud", "create"]).status == 0, "whoami reads only: it makes no cloud")
        let before = try cli.run(["--device", "laptop", "whoami", "--json"]).json()
        #expect(before["account"] == .string("alice"))
        #expect(before["device"] == .string("laptop"))
        #expect(before["container"] == .string("iCloud.com.example.App"))
        #expect(before["environment"] == .string("development"))
        // A URL, as --cloud takes it and the REPL shows it, not a bare path.
        #expect(before["cloud"]?.stringValue == "sqlite://\(home.path)/cloud.sqlite", "\(before)")
        #expect(cli.run(["--cloud", before["cloud"]?.stringValue ?? "", "zone", "list"]).status == 0, "it reads back")
        #expect(before["syncEnabled"] == .bool(false))
        #expect(before["accountSource"] == .string("$CLOUDSYNC_ACCOUNT"))
        let user = before["userRecordName"]?.stringValue ?? ""
        #expect(user.hasPrefix("_") && user.count > 8)

        #expect(cli.run(["store", "sync", "on"], device: "laptop").status == 0)
        let text = cli.run(["whoami"], device: "laptop")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("account:     alice (from $CLOUDSYNC_ACCOUNT)\n"))
        #expect(text.stdout.contains("user record: " + user + "\n"))
        #expect(text.stdout.contains("sync:        on\n"))
    }

    @Test func aServerPasswordIsMaskedAndAnUnreachableCloudIsNoError() throws {
        let result = cli.run(["--cloud", "http://bob:hunter2@127.0.0.1:9/", "whoami", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("hunter2"))
        let json = try result.json()
        #expect(json["userRecordName"] == .null)
        #expect(json["cloud"]?.stringValue?.contains("127.0.0.1:9") == true)
        let text = cli.run(["--cloud", "http://bob:hunter2@127.0.0.1:9/", "whoami"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("user record: (unknown: "))
        #expect(!text.stdout.contains("hunter2") && !text.stderr.contains("hunter2"))
    }
}
