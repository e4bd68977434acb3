import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

@Suite("Zones (conformance)")
struct ZoneConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func accountsAreStableAndWellFormed(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let a1 = try f.cloud.account(named: "alice")
        let a2 = try f.cloud.account(named: "alice")
        let b = try f.cloud.account(named: "bob")
        #expect(a1 == a2)
        #expect(a1.userRecordName != b.userRecordName)
        #expect(a1.userRecordName.count == 33 && a1.userRecordName.hasPrefix("_"))
        #expect(a1.userRecordName.dropFirst().allSatisfy { $0.isHexDigit })
    }

    @Test(arguments: CloudBackend.allCases)
    func defaultZoneAlwaysExistsAndCustomZonesAreCreatedOnce(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        var zones = try f.cloud.fetchAllZones(in: r)
        #expect(zones.map(\.zoneID.zoneName) == ["_defaultZone"])
        #expect(zones[0].capabilities == [])
        let created = try f.cloud.saveZones([ZoneSpec(name: "Notes", atomic: true), ZoneSpec(name: "Loose", atomic: false)], in: r)
        #expect(created.map(\.capabilities) == [[.fetchChanges, .atomic], [.fetchChanges]])
        let again = try f.cloud.saveZones([ZoneSpec(name: "Notes", atomic: false)], in: r)
        #expect(again[0].capabilities.contains(.atomic), "re-creating keeps the existing zone")
        zones = try f.cloud.fetchAllZones(in: r)
        #expect(zones.map(\.zoneID.zoneName) == ["_defaultZone", "Loose", "Notes"])
        #expect(zones[2].zoneID.ownerRecordName == r.userRecordName)
    }

    @Test(arguments: CloudBackend.allCases)
    func customZonesOnlyInThePrivateDatabase(_ backend: CloudBackend) throws {
        let f = try backend.make()
        for scope in [DatabaseScope.public, .shared] {
            let error = cloudError { _ = try f.cloud.saveZones([ZoneSpec(name: "Nope")], in: try f.request("alice", scope)) }
            #expect(error?.code == .invalidArguments)
            #expect(error?.reason.contains("private") == true)
        }
    }

    @Test(arguments: CloudBackend.allCases)
    func badZoneNamesAreRefused(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        for name in ["", "_private", "has space", "a/b", String(repeating: "x", count: 256)] {
            #expect(cloudError { _ = try f.cloud.saveZones([ZoneSpec(name: name)], in: r) }?.code == .invalidArguments, "\(name)")
        }
    }

    @Test(arguments: CloudBackend.allCases)
    func deletingZones(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Notes")], in: r)
        try f.save([f.record("n1", zone: "Notes", r)], r)
        #expect(cloudError { try f.cloud.deleteZones(["_defaultZone"], purge: false, in: r) }?.code == .invalidArguments)
        #expect(cloudError { try f.cloud.deleteZones(["Missing"], purge: false, in: r) }?.code == .zoneNotFound)
        try f.cloud.deleteZones(["Notes"], purge: false, in: r)
        #expect(try f.cloud.fetchAllZones(in: r).map(\.zoneID.zoneName) == ["_defaultZone"])
        #expect(cloudError { _ = try f.cloud.fetchZoneChanges("Notes", since: nil, limit: 10, in: r) }?.code == .zoneNotFound)
        // Re-created, it is empty.
        _ = try f.cloud.saveZones([ZoneSpec(name: "Notes")], in: r)
        #expect(try f.allChanges("Notes", since: nil, r).changed.isEmpty)
    }

    @Test(arguments: CloudBackend.allCases)
    func purgedZoneReportsUserDeletedZoneUntilRecreated(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "App")], in: r)
        try f.cloud.deleteZones(["App"], purge: true, in: r)
        let saveResult = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("x", zone: "App", r)]), in: r)
        #expect(saveResult.errors.values.first?.code == .userDeletedZone)
        #expect(cloudError { _ = try f.cloud.fetchZoneChanges("App", since: nil, limit: 10, in: r) }?.code == .userDeletedZone)
        _ = try f.cloud.saveZones([ZoneSpec(name: "App")], in: r)
        try f.save([f.record("x", zone: "App", r)], r)
    }

    @Test(arguments: CloudBackend.allCases)
    func zonesArePerAccount(_ backend: CloudBackend) throws {
        let f = try backend.make()
        _ = try f.cloud.saveZones([ZoneSpec(name: "AliceOnly")], in: try f.request("alice"))
        #expect(try f.cloud.fetchAllZones(in: try f.request("bob")).map(\.zoneID.zoneName) == ["_defaultZone"])
    }
}
