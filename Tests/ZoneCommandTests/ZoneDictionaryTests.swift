import CloudSyncCore
import TestSupport
import Testing

/// Every zone printed with --json is Apple's Zone dictionary (`zoneID`, `syncToken`, `atomic`,
/// plus `capabilities` and `recordCount`); a deleted zone is `{zoneID, deleted, purged}`.
@Suite("Zone JSON is Apple's Zone dictionary (through the binary)")
struct ZoneDictionaryTests {
    let home = TemporaryDirectory("zone-dict")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }

    func keys(_ value: JSONValue?) -> [String] { value?.objectValue?.map(\.0) ?? [] }

    @Test func createAndListPrintZoneDictionaries() throws {
        let created = try cli.run(["zone", "create", "Notes", "--atomic", "--json"]).json()
        let zone = try #require(created["zones"]?.arrayValue?.first)
        #expect(keys(zone) == ["zoneID", "syncToken", "atomic", "capabilities", "recordCount"])
        #expect(keys(zone["zoneID"]) == ["zoneName", "ownerRecordName"])
        #expect(zone["atomic"] == .bool(true))
        #expect(zone["syncToken"]?.stringValue?.isEmpty == false)
        let listed = try cli.run(["zone", "list", "--json"]).json()["zones"]?.arrayValue ?? []
        let byName = Dictionary(uniqueKeysWithValues: listed.map { ($0["zoneID"]?["zoneName"]?.stringValue ?? "", $0) })
        #expect(keys(byName["Notes"]) == ["zoneID", "syncToken", "atomic", "capabilities", "recordCount"])
        // The default zone tracks no changes: no syncToken, not atomic.
        #expect(keys(byName["_defaultZone"]) == ["zoneID", "atomic", "capabilities", "recordCount"])
        #expect(byName["_defaultZone"]?["atomic"] == .bool(false))
    }

    @Test func deletePrintsDeletedZoneDictionaries() throws {
        #expect(cli.run(["zone", "create", "A", "B"]).status == 0)
        let deleted = try cli.run(["zone", "delete", "A", "B", "--yes", "--json"]).json()
        #expect(keys(deleted) == ["zones"])
        let zones = deleted["zones"]?.arrayValue ?? []
        #expect(zones.map { $0["zoneID"]?["zoneName"]?.stringValue } == ["A", "B"])
        #expect(zones.allSatisfy { keys($0) == ["zoneID", "deleted", "purged"] && $0["deleted"] == .bool(true)
                                   && $0["purged"] == .bool(false) })
        #expect(cli.run(["zone", "create", "C"]).status == 0)
        let purged = try cli.run(["zone", "delete", "C", "--yes", "--purge", "--json"]).json()
        #expect(purged["zones"]?.arrayValue?.first?["purged"] == .bool(true))
    }

    @Test func fetchChangesPrintsADeletedZoneAsItsDictionary() throws {
        #expect(cli.run(["zone", "create", "Tmp"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "a", "--zone", "Tmp"]).status == 0)
        #expect(cli.run(["fetch-changes"], device: "phone").status == 0)
        #expect(cli.run(["zone", "delete", "Tmp", "--yes", "--purge"]).status == 0)
        let events = try cli.run(["fetch-changes", "--json"], device: "phone").ndjson()
        let deleted = try #require(events.first { $0["event"]?.stringValue == "zoneDeleted" })
        #expect(keys(deleted) == ["event", "zone", "reason", "droppedRecords"])
        #expect(keys(deleted["zone"]) == ["zoneID", "deleted", "purged"])
        #expect(deleted["zone"]?["zoneID"]?["zoneName"] == .string("Tmp"))
        #expect(deleted["zone"]?["purged"] == .bool(true))
    }
}
