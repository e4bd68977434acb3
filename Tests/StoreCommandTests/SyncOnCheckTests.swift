import CloudSyncCore
import TestSupport
import Testing

/// `store sync on` / `otp sync on` check what every later sync needs before the account-wide
/// flag goes on (issue 17, item 3).
@Suite("sync on checks first (end to end)")
struct SyncOnCheckTests {
    let home = TemporaryDirectory("sync-on-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    /// The flag as a device sees it after syncing the key-value store.
    func flag(_ device: String) -> JSONValue? {
        #expect(cli.run(["kv", "sync"], device: device).status == 0)
        let got = cli.run(["kv", "get", "icloud_sync", "--json"], device: device)
        return got.status == 0 ? (try? got.json()["value"]) : nil
    }

    @Test(arguments: [["store"], ["otp"]])
    func noPassphraseLeavesSyncOff(_ family: [String]) throws {
        if family == ["store"] {
            #expect(cli.run(["store", "put", "Item", "x", "--field", "v=1", "--encrypt", "v"], device: "laptop").status == 0)
        } else {
            #expect(cli.run(["otp", "add", "gh"], device: "laptop", stdin: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").status == 0)
        }
        // stdin is not a terminal and no CLOUDSYNC_PASSPHRASE: a missing secret input (64), and
        // the flag stays off.
        let on = cli.run(family + ["sync", "on", "--json"], device: "laptop")
        #expect(on.status == 64)
        #expect(try on.errorJSON()["error"]?["reason"]?.stringValue?.contains("sync stays off") == true)
        #expect(flag("laptop") == nil)
        #expect(flag("phone") == nil)
        let plain = cli.run(family + ["sync", "--json"], device: "laptop")
        #expect(plain.status == 0)
        #expect(try plain.json()["syncEnabled"] == .bool(false))
        // With the passphrase it turns on, and the JSON says this run changed it.
        let env = ["CLOUDSYNC_PASSPHRASE": "correct horse"]
        let turned = cli.run(family + ["sync", "on", "--json"], device: "laptop", env: env)
        #expect(turned.status == 0, "\(turned.stderr)")
        #expect(try turned.json()["syncEnabled"] == .bool(true))
        #expect(try turned.json()["syncTurnedOn"] == .bool(true))
        #expect(try turned.json()["saved"] == .int(1))
        let again = cli.run(family + ["sync", "on", "--json"], device: "laptop", env: env)
        #expect(try again.json()["syncTurnedOn"] == .bool(false))
        #expect(flag("phone") == .bool(true))
    }
}
