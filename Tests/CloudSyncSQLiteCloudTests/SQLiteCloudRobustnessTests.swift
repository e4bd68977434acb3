import CloudSyncSQLiteCloud
import CloudSyncService
import CloudSyncCore
import Synchronization
import TestSupport
import Testing

/// The embedded cloud with other processes and with data written past validation (issue 17,
/// items 7 and 11).
@Suite("SQLite cloud: stale caches and stored data")
struct SQLiteCloudRobustnessTests {
    let container = "iCloud.com.example.Tests"

    func request(_ cloud: SQLiteCloud, _ account: String, _ scope: DatabaseScope = .private) throws -> DatabaseRequest {
        DatabaseRequest(container: container, scope: scope, userRecordName: try cloud.account(named: account).userRecordName,
                        deviceID: "dev")
    }

    func record(_ name: String, _ r: DatabaseRequest, _ fields: [String: FieldValue], type: String = "Note") -> Record {
        Record(recordID: RecordID(recordName: name, zoneID: r.zoneID("_defaultZone")), recordType: type, fields: fields)
    }

    /// Two clouds on one file stand for two processes: each caches the schema it has read.
    /// A field another process added since is the normal case, not a UNIQUE failure (70).
    @Test func aFieldAddedByAnotherProcessIsNotAnError() throws {
        let dir = TemporaryDirectory("stale-schema")
        let one = try SQLiteCloud(path: dir.file("cloud.sqlite"))
        let two = try SQLiteCloud(path: dir.file("cloud.sqlite"))
        let r1 = try request(one, "alice"), r2 = try request(two, "alice")
        _ = try one.modifyRecords(ModifyRequest(saves: [record("a", r1, ["title": .string("x")])]), in: r1)  // caches Note
        _ = try two.modifyRecords(ModifyRequest(saves: [record("b", r2, ["extra": .int64(1), "word": .string("w")])]), in: r2)
        let same = try one.modifyRecords(ModifyRequest(saves: [record("c", r1, ["extra": .int64(2)])]), in: r1)
        #expect(same.errors.isEmpty, "\(same.errors)")
        // The type the other process committed still rules.
        let clash = try one.modifyRecords(ModifyRequest(saves: [record("d", r1, ["word": .int64(3)])]), in: r1)
        #expect(clash.errors.values.first?.code == .invalidArguments)
        #expect(clash.errors.values.first?.reason == "field 'word' of Note is STRING in the schema; got INT64")
        // And the first cloud now knows it without another conflict.
        let again = try one.modifyRecords(ModifyRequest(saves: [record("e", r1, ["word": .string("ok"), "extra": .int64(4)])]), in: r1)
        #expect(again.errors.isEmpty, "\(again.errors)")
    }

    /// The JSON of a query subscription whose predicate is `levels` nested NOTs.
    static func definition(nots levels: Int) -> String {
        var predicate = #"{"key":"a","op":"==","value":{"int64":1}}"#
        for _ in 0..<levels { predicate = #"{"not":"# + predicate + "}" }
        return #"{"recordType":"Post","predicate":"# + predicate + #","firesOn":7,"firesOnce":false,"alertBody":null,"desiredKeys":[]}"#
    }

    /// A subscription that could never have passed validation (written straight into the file)
    /// is skipped and logged: every account's saves and deletes in the public database go on.
    @Test func aStoredSubscriptionThatCannotBeEvaluatedNeverFailsAnotherAccountsWrite() throws {
        let dir = TemporaryDirectory("stored-subscription")
        let path = dir.file("cloud.sqlite")
        let cloud = try SQLiteCloud(path: path)
        let alice = try request(cloud, "alice", .public), bob = try request(cloud, "bob", .public)
        let valid = Subscription(subscriptionID: "valid", kind: .query(QuerySubscription(recordType: "Post")))
        _ = try cloud.saveSubscriptions([valid], in: alice)
        try cloud.registerDevice(DeviceAddress(container: container, userRecordName: alice.userRecordName, deviceID: "phone"))
        // 600 NOTs: deeper than the JSON reader's bound. 200: readable JSON, but deeper than a predicate may nest.
        for (id, levels) in [("deep600", 600), ("deep200", 200)] {
            let sql = """
                INSERT INTO subscriptions(db_id, owner, subscription_id, kind, zone_name, record_type, definition, created_ms, modified_ms)
                SELECT db_id, owner, '\(id)', kind, zone_name, record_type, '\(Self.definition(nots: levels))', created_ms, modified_ms
                FROM subscriptions WHERE subscription_id='valid';
                """
            let inserted = ProcessSpawner.run("/usr/bin/sqlite3", [path, sql], environment: [:])
            #expect(inserted.status == 0, "\(inserted.stderr)")
        }
        let logged = Mutex<[String]>([])
        let previous = CloudLog.setSink { line in logged.withLock { $0.append(line) } }
        defer { CloudLog.setSink(previous) }

        let saved = try cloud.modifyRecords(ModifyRequest(saves: [record("p1", bob, ["a": .int64(1)], type: "Post")]), in: bob)
        #expect(saved.errors.isEmpty, "\(saved.errors)")
        let deleted = try cloud.modifyRecords(ModifyRequest(deletes: [saved.saved[0].recordID]), in: bob)
        #expect(deleted.errors.isEmpty, "\(deleted.errors)")
        // The valid subscription still fired for both changes.
        let notes = try cloud.takeNotifications(for: DeviceAddress(container: container, userRecordName: alice.userRecordName,
                                                                   deviceID: "phone"), limit: 10)
        #expect(notes.map(\.subscriptionID) == ["valid", "valid"])
        // The owner still lists (and can delete) the rest.
        #expect(try cloud.fetchAllSubscriptions(in: alice).map(\.subscriptionID) == ["valid"])
        try cloud.deleteSubscriptions(["deep600", "deep200"], in: alice)
        let lines = logged.withLock { $0 }
        #expect(lines.contains { $0.contains("skipped subscription 'deep600'") })
        #expect(lines.contains { $0.contains("skipped subscription 'deep200'") && $0.contains("deeper than 100 levels") })
    }
}
