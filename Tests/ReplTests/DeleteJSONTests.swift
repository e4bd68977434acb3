import CloudSyncCore
import TestSupport
import Testing

/// The one rule for what deletes print with --json (ARCHITECTURE, "JSON shapes"): the family's
/// list wrapper, each item named as its list names it, with `deleted: true` (issue 30 item 11).
@Suite("delete, remove and revoke print their list's wrapper with deleted items (through the binary)")
struct DeleteJSONTests {
    let home = TemporaryDirectory("delete-json")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop", "CLOUDSYNC_ACCOUNT": "alice"]) }

    /// Runs `arguments` with --json, expecting success, and returns the printed document.
    func json(_ arguments: [String], stdin: String = "") throws -> JSONValue {
        let result = cli.run(["--json"] + arguments, stdin: stdin)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try result.json()
    }

    /// The only item under `key`, which must be a one-element list of deleted items.
    func onlyDeleted(_ document: JSONValue, _ key: String, _ what: String) -> JSONValue? {
        #expect(document.objectValue?.map(\.0) == [key], "\(what): \(document)")
        let items = document[key]?.arrayValue ?? []
        #expect(items.count == 1 && items.allSatisfy { $0["deleted"] == .bool(true) }, "\(what): \(document)")
        return items.first
    }

    @Test func everyDeleteNamesItsItemsAsItsListDoes() throws {
        _ = try json(["zone", "create", "Trips", "Gone"])
        let zone = onlyDeleted(try json(["zone", "delete", "Gone", "--yes"]), "zones", "zone delete")
        #expect(zone?["zoneID"]?["zoneName"] == .string("Gone"))

        _ = try json(["record", "save", "Note", "r1", "--field", "title=Hi"])
        let record = onlyDeleted(try json(["record", "delete", "r1"]), "records", "record delete")
        #expect(record?["recordName"] == .string("r1") && record?["zoneID"]?["zoneName"] == .string("_defaultZone"))

        _ = try json(["store", "put", "Todo", "milk", "--field", "title=Milk"])
        let local = onlyDeleted(try json(["store", "delete", "milk"]), "records", "store delete")
        #expect(local?["recordName"] == .string("milk") && local?["pending"] == .bool(true))
        #expect(local?["zoneID"]?["zoneName"]?.stringValue?.isEmpty == false)

        _ = try json(["kv", "set", "theme", "true", "--type", "bool"])
        let key = onlyDeleted(try json(["kv", "delete", "theme"]), "keys", "kv delete")
        #expect(key?["key"] == .string("theme") && key?["type"] == .string("bool"), "the type it had")

        _ = try json(["subscribe", "create", "--zone", "Trips", "--id", "trips"])
        let subscription = onlyDeleted(try json(["subscribe", "delete", "trips"]), "subscriptions", "subscribe delete")
        #expect(subscription?["subscriptionID"] == .string("trips") && subscription?["databaseScope"] == .string("private"))

        _ = try json(["otp", "add", "rfc"], stdin: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\n")
        let token = onlyDeleted(try json(["otp", "remove", "rfc", "--yes"]), "tokens", "otp remove")
        #expect(token?["name"] == .string("rfc") && token?["recordName"]?.stringValue?.isEmpty == false)
        #expect(try json(["otp", "list"])["tokens"]?.arrayValue?.isEmpty == true)

        let id = try json(["token", "create"])["id"]?.stringValue ?? ""
        let credential = onlyDeleted(try json(["token", "revoke", id]), "tokens", "token revoke")
        #expect(credential?["id"] == .string(id))
        #expect(try json(["token", "list"])["tokens"]?.arrayValue?.contains { $0["id"] == .string(id) } == false)

        _ = try json(["admin", "add", "alice"])
        _ = try json(["admin", "add", "bob"])
        let removed = try json(["admin", "remove", "bob"])
        #expect(removed["container"]?.stringValue?.isEmpty == false)
        #expect(removed["administrators"] == .array([.object([("account", .string("bob")), ("deleted", .bool(true))])]))

        _ = try json(["--account", "bob", "zone", "create", "Own"])
        let url = try json(["share", "create", "--zone", "Trips"])["url"]?.stringValue ?? ""
        _ = try json(["share", "add", "--zone", "Trips", "bob"])
        _ = try json(["--account", "bob", "share", "accept", url])
        let left = onlyDeleted(try json(["--account", "bob", "share", "leave", "--zone", "Trips", "--owner", "alice"]),
                               "accepted", "share leave")
        #expect(left?["zoneID"]?["zoneName"] == .string("Trips") && left?["shareID"] == .string("cloudkit.zoneshare"))
        let stopped = onlyDeleted(try json(["share", "delete", "--zone", "Trips"]), "owned", "share delete")
        #expect(stopped?["zoneID"]?["zoneName"] == .string("Trips"))
        #expect(try json(["share", "list"])["owned"]?.arrayValue?.isEmpty == true)
    }
}
