import CloudSyncCore
import TestSupport
import Testing

/// Completion of subscription IDs asks the cloud locator whether the cloud exists rather than
/// matching on its backend: it never creates a cloud, and lists IDs once there is one.
@Suite("cloudsync subscribe: live completion of IDs (end to end)")
struct SubscribeCompletionTests {
    let home = TemporaryDirectory("subscribe-complete")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func completesIDsWithoutEverCreatingTheCloud() throws {
        let url = "sqlite://" + home.file("elsewhere/team.sqlite")
        let before = cli.run(["__complete", "--", "--cloud", url, "subscribe", "delete", ""])
        #expect(before.status == 0 && before.stdout.isEmpty)
        #expect(TemporaryDirectory.readBytes(home.file("elsewhere/team.sqlite")) == nil, "completion created no cloud")
        #expect(cli.run(["--cloud", url, "cloud", "create"]).status == 0, "a cloud named explicitly is made on purpose")
        #expect(cli.run(["--cloud", url, "subscribe", "create", "--database", "private", "--id", "everything"]).status == 0)
        let after = cli.run(["__complete", "--", "--cloud", url, "subscribe", "delete", ""])
        #expect(after.stdout.split(separator: "\n") == ["everything"])
    }
}
