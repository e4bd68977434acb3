import CloudSyncCore
import TestSupport
import Testing

/// One account's query subscription can never fail another account's write (issue 17, item 7).
@Suite("cloudsync subscribe: one account cannot break the public database (end to end)")
struct SubscriptionIsolationTests {
    let home = TemporaryDirectory("subscribe-isolation")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func aDeepSubscriptionIsRefusedAtCreateTime() {
        let result = cli.run(["subscribe", "create", "--query", "Post", "--database", "public", "--id", "deep",
                              "--where", String(repeating: "NOT ", count: 600) + "a == 1"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("nested more than 100 levels deep"))
        #expect(cli.run(["subscribe", "list", "--database", "public", "--json"]).stdout.contains("deep") == false)
    }

    /// A subscription written straight into the cloud file, past validation: 600 nested NOTs
    /// made every save and delete in the public database exit 70, for every account.
    @Test func aStoredSubscriptionThatCannotBeEvaluatedIsSkipped() throws {
        #expect(cli.run(["subscribe", "create", "--query", "Post", "--database", "public", "--id", "fine"]).status == 0)
        var predicate = #"{"key":"a","op":"==","value":{"int64":1}}"#
        for _ in 0..<600 { predicate = #"{"not":"# + predicate + "}" }
        let definition = #"{"recordType":"Post","predicate":"# + predicate + #","firesOn":7,"firesOnce":false,"alertBody":null,"desiredKeys":[]}"#
        let sql = """
            INSERT INTO subscriptions(db_id, owner, subscription_id, kind, zone_name, record_type, definition, created_ms, modified_ms)
            SELECT db_id, owner, 'deep', kind, zone_name, record_type, '\(definition)', created_ms, modified_ms
            FROM subscriptions WHERE subscription_id='fine';
            """
        let inserted = ProcessSpawner.run("/usr/bin/sqlite3", [home.file("cloud.sqlite"), sql], environment: [:])
        #expect(inserted.status == 0, "\(inserted.stderr)")
        for account in ["bob", "carol", "alice"] {
            let bob = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_ACCOUNT": account])
            let saved = bob.run(["record", "save", "Post", "p-\(account)", "--database", "public", "--field", "a:INT64=1"])
            #expect(saved.status == 0, "\(saved.stderr)")
            #expect(saved.stderr.contains("skipped subscription 'deep'"))
            let deleted = bob.run(["record", "delete", "p-\(account)", "--database", "public"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
        }
        // The owner sees the rest and can delete the broken one.
        let listed = cli.run(["subscribe", "list", "--database", "public", "--json"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("\"fine\""))
        #expect(cli.run(["subscribe", "delete", "deep", "--database", "public"]).status == 0)
        let clean = cli.run(["record", "save", "Post", "p", "--database", "public", "--field", "a:INT64=1"], device: "phone")
        #expect(clean.status == 0 && clean.stderr.isEmpty)
    }
}
