import CloudSyncCore
import TestSupport
import Testing

/// `serve --quota-bytes` through the binary (issue 25, item 7): past an account's quota a save
/// exits 65 with QUOTA_EXCEEDED, while reads and deletes go on; a bad value is a usage error.
@Suite("cloudsync serve --quota-bytes (end to end)")
struct ServeQuotaTests {
    @Test func anAccountPastItsQuotaCanReadAndDeleteButNotGrow() throws {
        let fixture = try ServeFixture(serveArguments: ["--quota-bytes", "20K"])
        let (home, client) = fixture.client("quota")
        let big = home.write("big.txt", String(repeating: "q", count: 15_000))
        #expect(client.run(["record", "save", "Note", "n1", "--field", "body=@\(big)"], device: "a").status == 0)
        let refused = client.run(["record", "save", "Note", "n2", "--field", "body=@\(big)"], device: "a")
        #expect(refused.status == 65, "\(refused.status) \(refused.stderr)")
        #expect(refused.stderr.contains("quota"), "\(refused.stderr)")
        let json = client.run(["--json", "record", "save", "Note", "n3", "--field", "body=@\(big)"], device: "a")
        #expect(try json.errorJSON()["error"]?["serverErrorCode"] == .string("QUOTA_EXCEEDED"), "\(json.stderr)")
        #expect(client.run(["record", "get", "n1"], device: "a").status == 0)
        #expect(client.run(["record", "delete", "n1"], device: "a").status == 0)
        #expect(client.run(["record", "save", "Note", "n2", "--field", "body=@\(big)"], device: "a").status == 0)
        #expect(fixture.stop() == 0)
    }

    @Test func aBadQuotaIsAUsageError() throws {
        let home = TemporaryDirectory("quota-usage")
        let bad = BinaryRunner(home: home.path).run(["serve", "--listen", "127.0.0.1:0", "--quota-bytes", "lots"])
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("--quota-bytes"), "\(bad.stderr)")
    }
}
