import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

@Suite("Records (conformance)")
struct RecordConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func saveAssignsSystemFieldsAndFetchReturnsThem(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice", device: "laptop")
        let saved = try f.save([f.record("n1", zone: "_defaultZone", r, fields: ["title": .string("Hi"), "n": .int64(3)])], r)[0]
        let system = try #require(saved.system)
        #expect(!system.changeTag.isEmpty)
        #expect(system.created == system.modified)
        #expect(system.created.userRecordName == r.userRecordName)
        #expect(system.created.deviceID == "laptop")
        let fetched = try f.cloud.fetchRecords([saved.recordID], in: r)[saved.recordID]
        #expect(try fetched?.get() == saved)
    }

    @Test(arguments: CloudBackend.allCases)
    func ifServerRecordUnchangedNeedsTheCurrentTag(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        let first = try f.save([f.record("n1", zone: "_defaultZone", r, fields: ["v": .int64(1)])], r)[0]
        // No tag: the record exists, so this is a conflict that carries the server record.
        let noTag = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("n1", zone: "_defaultZone", r, fields: ["v": .int64(9)])]), in: r)
        let conflict = try #require(noTag.errors.values.first)
        #expect(conflict.code == .serverRecordChanged)
        #expect(conflict.serverRecord == first)
        // Current tag: saved, new tag, created kept.
        var edit = first
        edit.fields["v"] = .int64(2)
        let second = try f.save([edit], r)[0]
        #expect(second.changeTag != first.changeTag)
        #expect(second.system?.created == first.system?.created)
        // The old tag is now stale.
        let stale = try f.cloud.modifyRecords(ModifyRequest(saves: [edit]), in: r)
        #expect(stale.errors.values.first?.code == .serverRecordChanged)
        #expect(stale.errors.values.first?.serverRecord?.fields["v"] == .int64(2))
        #expect(stale.saved.isEmpty)
    }

    @Test(arguments: CloudBackend.allCases)
    func aCreationThatConflictsLeavesNoTraceInTheChanges(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: r)
        let first = try f.save([f.record("a", zone: "Z", r, fields: ["v": .int64(1)])], r)[0]
        let token = try f.allChanges("Z", since: nil, r).token
        // A creation of a name that is taken, in the same call as a real creation.
        let result = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("a", zone: "Z", r, fields: ["v": .int64(9)]),
                                                                     f.record("b", zone: "Z", r)]), in: r)
        #expect(result.errors.count == 1)
        #expect(result.errors.values.first?.code == .serverRecordChanged)
        #expect(result.errors.values.first?.serverRecord == first)
        #expect(result.saved.map(\.recordID.recordName) == ["b"])
        #expect(result.saved[0].changeTag != first.changeTag)
        let since = try f.allChanges("Z", since: token, r)
        #expect(since.changed.map(\.recordID.recordName) == ["b"], "the refused creation changed nothing")
        #expect(try f.cloud.fetchRecords([first.recordID], in: r)[first.recordID]?.get() == first)
    }

    @Test(arguments: CloudBackend.allCases)
    func aDeletedNameCanBeCreatedAgain(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        let first = try f.save([f.record("a", zone: "Z", r, fields: ["v": .int64(1)])], r)[0]
        _ = try f.cloud.modifyRecords(ModifyRequest(deletes: [first.recordID]), in: r)
        let token = try f.allChanges("Z", since: nil, r).token
        let again = try f.save([f.record("a", zone: "Z", r, fields: ["v": .int64(2)])], r)[0]
        #expect(again.fields["v"] == .int64(2))
        #expect(again.changeTag != first.changeTag)
        let since = try f.allChanges("Z", since: token, r)
        #expect(since.changed.map(\.recordID.recordName) == ["a"])
        #expect(since.deleted.isEmpty)
    }

    @Test(arguments: CloudBackend.allCases)
    func changedKeysMergesAndAllKeysReplaces(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        try f.save([f.record("n1", zone: "_defaultZone", r, fields: ["a": .int64(1), "b": .int64(2)])], r)
        let merged = try f.save([f.record("n1", zone: "_defaultZone", r, fields: ["b": .int64(20), "c": .int64(30)])], r,
                                policy: .changedKeys)[0]
        #expect(merged.fields == ["a": .int64(1), "b": .int64(20), "c": .int64(30)])
        let replaced = try f.save([f.record("n1", zone: "_defaultZone", r, fields: ["z": .int64(0)])], r, policy: .allKeys)[0]
        #expect(replaced.fields == ["z": .int64(0)])
    }

    @Test(arguments: CloudBackend.allCases)
    func recordTypeAndFieldTypesCannotChange(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        try f.save([f.record("n1", zone: "_defaultZone", r, fields: ["count": .int64(1)])], r)
        let typeChange = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("n1", zone: "_defaultZone", r, type: "Other")],
                                                                 policy: .allKeys), in: r)
        #expect(typeChange.errors.values.first?.code == .invalidArguments)
        let fieldChange = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("n2", zone: "_defaultZone", r,
                                                                                   fields: ["count": .string("one")])]), in: r)
        let error = try #require(fieldChange.errors.values.first)
        #expect(error.code == .invalidArguments)
        #expect(error.reason.contains("count") && error.reason.contains("INT64"))
    }

    @Test(arguments: CloudBackend.allCases)
    func deleteLeavesNothingAndMissingIsUnknownItem(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        let saved = try f.save([f.record("n1", zone: "_defaultZone", r)], r)[0]
        let result = try f.cloud.modifyRecords(ModifyRequest(deletes: [saved.recordID]), in: r)
        #expect(result.deleted == [saved.recordID])
        #expect(throws: CloudError.self) { try f.cloud.fetchRecords([saved.recordID], in: r)[saved.recordID]?.get() }
        let again = try f.cloud.modifyRecords(ModifyRequest(deletes: [saved.recordID]), in: r)
        #expect(again.errors[saved.recordID]?.code == .unknownItem)
        // Saving with the old tag over a deleted record: unknownItem, never a silent resurrection.
        let resurrect = try f.cloud.modifyRecords(ModifyRequest(saves: [saved]), in: r)
        #expect(resurrect.errors.values.first?.code == .unknownItem)
    }

    @Test(arguments: CloudBackend.allCases)
    func limitsAreEnforced(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        let many = (0...400).map { f.record("r\($0)", zone: "_defaultZone", r) }
        #expect(cloudError { _ = try f.cloud.modifyRecords(ModifyRequest(saves: many), in: r) }?.code == .limitExceeded)
        try f.save(Array(many.prefix(400)), r)
        let big = f.record("big", zone: "_defaultZone", r, fields: ["blob": .bytes([UInt8](repeating: 7, count: 1_048_577))])
        let result = try f.cloud.modifyRecords(ModifyRequest(saves: [big]), in: r)
        #expect(result.errors.values.first?.code == .limitExceeded)
        #expect(cloudError { _ = try f.cloud.modifyRecords(ModifyRequest(saves: [many[0], many[0]]), in: r) }?.code == .invalidArguments)
    }

    @Test(arguments: CloudBackend.allCases)
    func atomicZoneIsAllOrNothing(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Atomic", atomic: true), ZoneSpec(name: "Loose", atomic: false)], in: r)
        for zone in ["Atomic", "Loose"] { try f.save([f.record("existing", zone: zone, r)], r) }
        let before = try f.cloud.fetchAllZones(in: r).first { $0.zoneID.zoneName == "Atomic" }?.syncToken
        // One conflicting item (no tag over an existing record) among good ones.
        let atomic = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("a", zone: "Atomic", r), f.record("existing", zone: "Atomic", r)]), in: r)
        #expect(atomic.saved.isEmpty)
        #expect(atomic.errors[RecordID(recordName: "existing", zoneID: r.zoneID("Atomic"))]?.code == .serverRecordChanged)
        #expect(atomic.errors[RecordID(recordName: "a", zoneID: r.zoneID("Atomic"))]?.code == .batchRequestFailed)
        let after = try f.cloud.fetchAllZones(in: r).first { $0.zoneID.zoneName == "Atomic" }?.syncToken
        #expect(before == after, "a failed atomic call changes nothing, not even the zone's sequence")
        let loose = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("a", zone: "Loose", r), f.record("existing", zone: "Loose", r)]), in: r)
        #expect(loose.saved.map(\.recordID.recordName) == ["a"])
        #expect(loose.errors.count == 1)
        #expect(loose.partialFailure?.code == .serverRecordChanged)
    }

    @Test(arguments: CloudBackend.allCases)
    func everyFieldTypeRoundTrips(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        let ref = Reference(recordID: RecordID(recordName: "other", zoneID: r.zoneID("_defaultZone")), action: .none)
        let asset = try f.cloud.uploadAssets([Array("file contents".utf8)], in: r)[0]
        let fields: [String: FieldValue] = [
            "s": .string("héllo \"quoted\"\n"), "i": .int64(Int64.min), "d": .double(-0.125), "t": .timestamp(1_700_000_000_123),
            "b": .bytes([0, 1, 2, 255]), "r": .reference(ref), "l": .location(Location(latitude: 52.5, longitude: 13.4, altitude: 34)),
            "a": .asset(asset),
            "sl": .list(.string, [.string("a"), .string("b")]), "il": .list(.int64, [.int64(1), .int64(-2)]),
            "dl": .list(.double, [.double(1.5)]), "tl": .list(.timestamp, [.timestamp(0)]), "bl": .list(.bytes, [.bytes([9])]),
            "rl": .list(.reference, [.reference(ref)]), "ll": .list(.location, [.location(Location(latitude: 0, longitude: 0))]),
            "el": .list(.string, []),
        ]
        let saved = try f.save([f.record("all", zone: "_defaultZone", r, fields: fields)], r)[0]
        let fetched = try f.cloud.fetchRecords([saved.recordID], in: r)[saved.recordID]?.get()
        #expect(fetched?.fields == fields)
    }

    @Test(arguments: CloudBackend.allCases)
    func deleteSelfReferencesCascade(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        let parent = f.record("parent", zone: "Z", r)
        let child = f.record("child", zone: "Z", r, type: "Item",
                             fields: ["owner": .reference(Reference(recordID: parent.recordID, action: .deleteSelf))])
        let grandchild = f.record("grandchild", zone: "Z", r, type: "Item",
                                  fields: ["owner": .reference(Reference(recordID: child.recordID, action: .deleteSelf))])
        let bystander = f.record("bystander", zone: "Z", r, type: "Item",
                                 fields: ["owner": .reference(Reference(recordID: parent.recordID, action: .none))])
        try f.save([parent, child, grandchild, bystander], r)
        let result = try f.cloud.modifyRecords(ModifyRequest(deletes: [parent.recordID]), in: r)
        #expect(Set(result.deleted.map(\.recordName)) == ["parent", "child", "grandchild"])
        let left = try f.allChanges("Z", since: nil, r)
        #expect(left.changed.map(\.recordID.recordName) == ["bystander"])
        #expect(Set(left.deleted.map(\.recordID.recordName)) == ["parent", "child", "grandchild"])
    }

    @Test(arguments: CloudBackend.allCases)
    func assetsAreStoredByChecksumAndMustBeUploadedFirst(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        let contents: [UInt8] = Array("hello asset".utf8)
        let refs = try f.cloud.uploadAssets([contents, contents], in: r)
        #expect(refs[0] == refs[1])
        #expect(refs[0].checksum == "2d5eebd03955939c6aa7ad07292cc6e13934da502e92581ac55fa20c6986c7fb")
        #expect(refs[0].size == Int64(contents.count))
        #expect(try f.cloud.fetchAsset(refs[0], in: r) == contents)
        let missing = AssetReference(checksum: String(repeating: "0", count: 64), size: 3)
        #expect(cloudError { _ = try f.cloud.fetchAsset(missing, in: r) }?.code == .assetFileNotFound)
        let result = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("x", zone: "_defaultZone", r, fields: ["file": .asset(missing)])]), in: r)
        #expect(result.errors.values.first?.code == .assetFileNotFound)
        // Assets belong to a database: another account cannot read them.
        #expect(cloudError { _ = try f.cloud.fetchAsset(refs[0], in: try f.request("bob")) }?.code == .assetFileNotFound)
    }
}
