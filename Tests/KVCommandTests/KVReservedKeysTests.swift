import CloudSyncCore
import TestSupport
import Testing

/// Issue 30, item 11: `kv list` shows the user's keys, not cloudsync's own (the wrapped data
/// key with its scrypt parameters) unless `--all`; `kv delete` says what it deleted.
@Suite("kv: reserved keys and deletions (end to end)")
struct KVReservedKeysTests {
    let home = TemporaryDirectory("kv-reserved")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func listHidesReservedKeysUnlessAll() throws {
        #expect(cli.run(["kv", "set", "theme", "dark"]).status == 0)
        let unlock = cli.run(["keys", "unlock"], env: ["CLOUDSYNC_PASSPHRASE": "correct horse"])
        #expect(unlock.status == 0, "\(unlock.stderr)")
        let keys = try cli.run(["kv", "list", "--json"]).json()["keys"]?.arrayValue?.compactMap { $0["key"]?.stringValue } ?? []
        #expect(keys == ["theme"], "\(keys)")
        let text = cli.run(["kv", "list"])
        #expect(text.stdout.contains("theme") && !text.stdout.contains("cloudsync.data-key") && !text.stdout.contains("scrypt"))
        let all = try cli.run(["kv", "list", "--all", "--json"]).json()["keys"]?.arrayValue?.compactMap { $0["key"]?.stringValue } ?? []
        #expect(all.contains("cloudsync.data-key") && all.contains("theme"), "\(all)")
        #expect(cli.run(["kv", "list", "-a"]).stdout.contains("cloudsync.data-key"))
    }

    @Test func deleteSaysWhatItDeleted() throws {
        #expect(cli.run(["kv", "set", "theme", "dark"]).status == 0)
        let deleted = cli.run(["kv", "delete", "theme"])
        #expect(deleted.status == 0)
        #expect(deleted.stdout == "theme deleted (pending until 'kv sync')\n", "\(deleted.stdout)")
    }
}
