import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

@Suite("Access rules (conformance)")
struct AccessConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func privateDatabasesAreSeparate(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let alice = try f.request("alice")
        let bob = try f.request("bob")
        let saved = try f.save([f.record("secret", zone: "_defaultZone", alice)], alice)[0]
        let asBob = RecordID(recordName: saved.recordID.recordName, zoneID: bob.zoneID("_defaultZone"))
        #expect(throws: CloudError.self) { try f.cloud.fetchRecords([asBob], in: bob)[asBob]?.get() }
        #expect(try f.cloud.queryRecords(RecordQuery(recordType: "Note"), in: bob).records.isEmpty)
    }

    @Test(arguments: CloudBackend.allCases)
    func publicRecordsAreReadableByAllAndWritableByTheirCreator(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let alice = try f.request("alice", .public)
        let bob = try f.request("bob", .public)
        let post = try f.save([f.record("post", zone: "_defaultZone", alice, type: "Post", fields: ["text": .string("hi")])], alice)[0]
        #expect(try f.cloud.fetchRecords([post.recordID], in: bob)[post.recordID]?.get().fields["text"] == .string("hi"))
        #expect(try f.cloud.queryRecords(RecordQuery(recordType: "Post"), in: bob).records.count == 1)
        var edit = post
        edit.fields["text"] = .string("bob was here")
        let denied = try f.cloud.modifyRecords(ModifyRequest(saves: [edit]), in: bob)
        #expect(denied.errors.values.first?.code == .permissionFailure)
        let deleteDenied = try f.cloud.modifyRecords(ModifyRequest(deletes: [post.recordID]), in: bob)
        #expect(deleteDenied.errors.values.first?.code == .permissionFailure)
        #expect(try f.save([edit], alice)[0].fields["text"] == .string("bob was here"))
    }

    /// Only a user writes the public record named by its userRecordName (its published identity
    /// key), and a Message names its sender as `from`: no squatting, no forged sender.
    @Test(arguments: CloudBackend.allCases)
    func userRecordsAndMessageSendersBelongToTheirUser(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let alice = try f.request("alice", .public)
        let bob = try f.request("bob", .public)
        let key: [String: FieldValue] = ["publicKey": .bytes(Array(repeating: 9, count: 32))]
        let squat = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record(alice.userRecordName, zone: "_defaultZone", bob,
                                                                             type: "UserIdentity", fields: key)]), in: bob)
        #expect(squat.errors.values.first?.code == .permissionFailure)
        let misnamed = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("identity", zone: "_defaultZone", bob,
                                                                                type: "UserIdentity", fields: key)]), in: bob)
        #expect(misnamed.errors.values.first?.code == .permissionFailure)
        #expect(try f.save([f.record(bob.userRecordName, zone: "_defaultZone", bob, type: "UserIdentity", fields: key)], bob).count == 1)
        func message(from user: String) -> Record {
            f.record("msg-1", zone: "_defaultZone", bob, type: "Message",
                     fields: ["from": .reference(Reference(recordID: RecordID(recordName: user, zoneID: bob.zoneID("_defaultZone"))))])
        }
        let forged = try f.cloud.modifyRecords(ModifyRequest(saves: [message(from: alice.userRecordName)]), in: bob)
        #expect(forged.errors.values.first?.code == .permissionFailure)
        #expect(try f.save([message(from: bob.userRecordName)], bob).count == 1)
    }

    @Test(arguments: CloudBackend.allCases)
    func sharedDatabaseHasNoZonesWithoutSharing(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let shared = try f.request("alice", .shared)
        #expect(cloudError { _ = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("x", zone: "_defaultZone", shared)]), in: shared) }?.code == .zoneNotFound)
    }
}
