import CloudSyncCore
import TestSupport
import Testing

@Suite("Seed 000: the sync toggle (end to end)")
struct SyncToggleTests {
    let home = TemporaryDirectory("toggle-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func names(_ device: String) throws -> [String] {
        try cli.run(["store", "query", "Note", "--json"], device: device).json()["records"]?.arrayValue?
            .compactMap { $0["recordName"]?.stringValue }.sorted() ?? []
    }

    func zones() throws -> [String] {
        try cli.run(["zone", "list", "--json"]).json()["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } ?? []
    }

    @Test func offByDefaultMakesNoDataCalls() throws {
        #expect(cli.run(["store", "put", "Note", "n1"], device: "laptop").status == 0)
        let log = home.file("calls.log")
        let result = cli.run(["store", "sync", "--json"], device: "laptop", env: ["CLOUDSYNC_CALL_LOG": log])
        #expect(result.status == 0)
        #expect(try result.json()["syncEnabled"] == .bool(false))
        let calls = String(decoding: TemporaryDirectory.readBytes(log) ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(!calls.isEmpty, "the key-value store was asked for the toggle")
        let dataCalls = calls.filter { !["account", "modifyKeyValues", "fetchKeyValueChanges"].contains($0) }
        #expect(dataCalls.isEmpty, "no data calls while sync is off: \(dataCalls)")
        #expect(try zones() == ["_defaultZone"])
        let history = try cli.run(["store", "history", "--json"], device: "laptop").ndjson()
        #expect(history.count == 1, "history records while off")
    }

    @Test func theWholeStory() throws {
        // Off by default: edits stay local.
        #expect(cli.run(["store", "put", "Note", "written-while-off", "--field", "t=1"], device: "laptop").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        #expect(try zones() == ["_defaultZone"])
        // On: everything recorded while off is pushed; the phone gets it.
        let on = cli.run(["store", "sync", "on", "--json"], device: "laptop")
        #expect(on.status == 0, "\(on.stderr)")
        #expect(try on.json()["saved"] == .int(1))
        #expect(cli.run(["store", "sync"], device: "phone").status == 0)
        #expect(try names("phone") == ["written-while-off"])
        #expect(cli.run(["store", "put", "Note", "from-phone"], device: "phone").status == 0)
        #expect(cli.run(["store", "sync"], device: "phone").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        // Off with delete: the zone goes; the phone sees the flag, stops, keeps its records.
        #expect(cli.run(["store", "sync", "off", "--delete-cloud-data"], device: "laptop").status == 64, "needs --yes without a terminal")
        let off = cli.run(["store", "sync", "off", "--delete-cloud-data", "--yes", "--json"], device: "laptop")
        #expect(off.status == 0, "\(off.stderr)")
        #expect(try off.json()["deletedZones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("com.apple.coredata.cloudkit.zone")])
        #expect(try zones() == ["_defaultZone"])
        let log = home.file("phone-calls.log")
        let phone = cli.run(["store", "sync", "--json"], device: "phone", env: ["CLOUDSYNC_CALL_LOG": log])
        #expect(phone.status == 0)
        #expect(try phone.json()["syncEnabled"] == .bool(false))
        let phoneCalls = String(decoding: TemporaryDirectory.readBytes(log) ?? [], as: UTF8.self).split(separator: "\n")
        #expect(phoneCalls.allSatisfy { ["account", "modifyKeyValues", "fetchKeyValueChanges"].contains(String($0)) })
        #expect(try names("phone") == ["from-phone", "written-while-off"], "the phone keeps every local record")
        #expect(try names("laptop") == ["from-phone", "written-while-off"])
        // Edits while off keep recording; on again re-creates the zone and re-uploads.
        #expect(cli.run(["store", "put", "Note", "while-off-again"], device: "phone").status == 0)
        #expect(cli.run(["store", "sync", "on"], device: "laptop").status == 0)
        #expect(try zones().contains("com.apple.coredata.cloudkit.zone"))
        #expect(cli.run(["store", "sync"], device: "phone").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        #expect(try names("laptop") == ["from-phone", "while-off-again", "written-while-off"])
        #expect(try names("phone") == (try names("laptop")))
        let cloud = try cli.run(["record", "query", "Note", "--zone", "com.apple.coredata.cloudkit.zone", "--json"]).json()
        #expect(cloud["records"]?.arrayValue?.count == 3, "the cloud copy is restored")
    }
}
